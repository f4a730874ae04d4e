/**
 * `cairn serve` under a 1 MiB answer (issue 29): the CPU the server process
 * spends, its own start included, on one task followed by 1 and by 10 event
 * stream clients, against `cairn run --json` running the same task alone
 * (the baseline), in the same run, interleaved. Goals: one client <= 1.3x,
 * ten clients <= 2x. Both without checkpoints (the server's cost is the
 * question, not git's).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startScriptedServer, type ScriptedServer } from "../src/llm/scripted/server.js";
import { markdownAnswer, scriptedModelArgs } from "./serve-inputs.js";
import { cpuOf, median, timeProcess } from "./process-timing.js";

const bin = process.env["CAIRN_BENCH_BIN"] ?? fileURLToPath(new URL("../bin/cairn", import.meta.url));
const repetitions = Number(process.env["BENCH_REPETITIONS"] ?? 3);
const mebibyte = 1024 * 1024;

const modelArgs = scriptedModelArgs;

/** Follows a task's events until its result; resolves with the bytes received. */
function follow(url: string, token: string, taskId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let tail = "";
    const outgoing = request(`${url}/api/tasks/${taskId}/events`, { headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        bytes += chunk.length;
        tail = (tail + chunk).slice(-4096);
        if (tail.includes('"type":"result"')) {
          outgoing.destroy();
          resolve(bytes);
        }
      });
    });
    outgoing.on("error", (error) => (bytes > 0 && tail.includes('"type":"result"') ? resolve(bytes) : reject(error)));
    outgoing.end();
  });
}

/** One task in a fresh `cairn serve` with `clients` followers: the server's CPU from its start to the last client's result. */
async function serveOnce(server: ScriptedServer, env: NodeJS.ProcessEnv, cwd: string, clients: number): Promise<number> {
  const child = spawn(process.execPath, [bin, "serve", "--port", "0", ...modelArgs(server)], { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
  try {
    let out = "";
    const [, url, token] = await new Promise<string[]>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /(http:\/\/\S+)\/\?token=(\w+)/.exec(out);
        if (match !== null) resolve([...match]);
      });
      child.on("exit", (code) => reject(new Error(`cairn serve exited with ${String(code)}`)));
    });
    const started = await fetch(`${url!}/api/tasks`, { method: "POST", headers: { authorization: `Bearer ${token!}`, "content-type": "application/json" }, body: JSON.stringify({ prompt: "answer", cwd }) });
    const { taskId } = (await started.json()) as { taskId: string };
    const received = await Promise.all(Array.from({ length: clients }, () => follow(url!, token!, taskId)));
    // Every client got the whole answer (about twice: as it streamed, and in its final message).
    if (received.some((bytes) => bytes < mebibyte)) throw new Error(`a client received only ${Math.min(...received)} bytes`);
    return cpuOf(child.pid!);
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("close", resolve));
  }
}

const root = await mkdtemp(join(tmpdir(), "cairn-bench-serve-"));
const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: join(root, "data"), XDG_CONFIG_HOME: join(root, "config"), NO_COLOR: "1" };
for (const name of Object.keys(env)) if (name.endsWith("_API_KEY") || name.startsWith("CAIRN_SERVER")) delete env[name];
const turn = { text: markdownAnswer(), chunkSize: 16, delayMs: 0 };
const server = await startScriptedServer({ scenario: { turns: Array.from({ length: repetitions * 3 }, () => turn) } });
const samples: Record<"run" | "one" | "ten", number[]> = { run: [], one: [], ten: [] };
let failures = 0;
try {
  for (let round = 0; round < repetitions; round += 1) {
    samples.run.push((await timeProcess([bin, "run", "--json", "--yes", ...modelArgs(server), "answer"], { cwd: root, env })).cpu);
    samples.one.push(await serveOnce(server, env, root, 1));
    samples.ten.push(await serveOnce(server, env, root, 10));
  }
  const base = median(samples.run);
  console.log(`${bin}; CPU of a 1 MiB answer (16-char chunks), medians of ${repetitions}; server CPU includes its own start`);
  console.log(`cairn run --json: ${base} ms  (${samples.run.join(", ")})`);
  for (const [name, key, goal] of [
    ["serve, 1 client", "one", 1.3],
    ["serve, 10 clients", "ten", 2],
  ] as const) {
    const ratio = median(samples[key]) / base;
    if (ratio > goal) failures += 1;
    console.log(`${name}: ${median(samples[key])} ms (${samples[key].join(", ")}) = ${ratio.toFixed(2)}x  goal <= ${goal}x: ${ratio <= goal ? "met" : "MISSED"}`);
  }
} finally {
  await server.close();
  await rm(root, { recursive: true, force: true });
}
console.log(failures === 0 ? "serve: all goals met" : `serve: ${failures} goal(s) missed`);
process.exitCode = failures === 0 ? 0 : 1;
