/**
 * `cairn attach` under a 1 MiB answer (issue 29): the CPU of the attached
 * terminal UI (its own process, in tmux, 100x30) following a task of `cairn
 * serve` from its start to the completion prompt, against the local terminal
 * UI (`cairn "<task>"`, same terminal size) running the same task itself, in
 * the same run, interleaved, medians. The attached UI parses the server's
 * events instead of the model's stream and runs no tools: it should cost no
 * more than the local one (goal <= 1x). Needs `npm run build` and tmux.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startScriptedServer, type ScriptedServer } from "../src/llm/scripted/server.js";
import { startTmux, tmuxAvailable, type TmuxSession } from "../src/ui/tui/test-support/tmux.js";
import { markdownAnswer, scriptedModelArgs } from "./serve-inputs.js";
import { median } from "./process-timing.js";
import { procCpu } from "./stream/measure-process.js";
import { processWithTag } from "./tui/turns-in-terminal.js";

const bin = process.env["CAIRN_BENCH_BIN"] ?? fileURLToPath(new URL("../bin/cairn", import.meta.url));
const repetitions = Number(process.env["BENCH_REPETITIONS"] ?? 3);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const modelArgs = scriptedModelArgs;

async function waitForScreen(session: TmuxSession, pattern: RegExp, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (pattern.test(await session.capture())) return;
    await sleep(20);
  }
  throw new Error(`the screen never showed ${pattern}:\n${await session.capture()}`);
}

/** Starts `cairn ...args` in tmux and measures the CPU of its process once the completion prompt is on screen. */
async function cpuUntilDone(args: string[], tag: string, cwd: string, env: Record<string, string>): Promise<number> {
  const session = await startTmux({ command: [process.execPath, bin, ...args], cwd, env, columns: 100, rows: 30 });
  try {
    let pid: number | undefined;
    for (const deadline = performance.now() + 10_000; pid === undefined && performance.now() < deadline;) {
      pid = processWithTag(tag);
      if (pid === undefined) await sleep(2);
    }
    if (pid === undefined) throw new Error(`the process of ${tag} was not found`);
    await waitForScreen(session, /Task completed[\s\S]*(Done\?|Done in)/, 180_000);
    return procCpu(pid).selfMs;
  } finally {
    await session.kill();
  }
}

async function local(server: ScriptedServer, root: string, round: number): Promise<number> {
  const folder = join(root, `local-${round}`);
  await mkdir(join(folder, "workspace"), { recursive: true });
  const tag = `answer-local-${process.pid}-${round}`;
  return cpuUntilDone([...modelArgs(server), tag], tag, join(folder, "workspace"), { CAIRN_HOME: join(folder, "data"), XDG_CONFIG_HOME: join(folder, "config"), NO_COLOR: "1" });
}

async function attached(server: ScriptedServer, root: string, round: number): Promise<number> {
  const folder = join(root, `attach-${round}`);
  const workspace = join(folder, "workspace");
  await mkdir(workspace, { recursive: true });
  const own = { CAIRN_HOME: join(folder, "data"), XDG_CONFIG_HOME: join(folder, "config"), NO_COLOR: "1" };
  const env: NodeJS.ProcessEnv = { ...process.env, ...own };
  for (const name of Object.keys(env)) if (name.endsWith("_API_KEY") || name.startsWith("CAIRN_SERVER")) delete env[name];
  const serve = spawn(process.execPath, [bin, "serve", "--port", "0", ...modelArgs(server)], { env, cwd: workspace, stdio: ["ignore", "pipe", "pipe"] });
  try {
    let out = "";
    const [, url, token] = await new Promise<string[]>((resolve, reject) => {
      serve.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /(http:\/\/\S+)\/\?token=(\w+)/.exec(out);
        if (match !== null) resolve([...match]);
      });
      serve.on("exit", (code) => reject(new Error(`cairn serve exited with ${String(code)}`)));
    });
    const started = await fetch(`${url!}/api/tasks`, { method: "POST", headers: { authorization: `Bearer ${token!}`, "content-type": "application/json" }, body: JSON.stringify({ prompt: "answer", cwd: workspace }) });
    const { taskId } = (await started.json()) as { taskId: string };
    return await cpuUntilDone(["attach", taskId], taskId, workspace, own);
  } finally {
    serve.kill("SIGTERM");
    await new Promise((resolve) => serve.once("close", resolve));
  }
}

if (!tmuxAvailable()) {
  console.log("attach: tmux is not installed; skipped");
} else {
  const root = await mkdtemp(join(tmpdir(), "cairn-bench-attach-"));
  const turn = { text: markdownAnswer(), chunkSize: 16, delayMs: 0 };
  const server = await startScriptedServer({ scenario: { turns: Array.from({ length: repetitions * 2 }, () => turn) } });
  const samples: Record<"local" | "attach", number[]> = { local: [], attach: [] };
  try {
    for (let round = 0; round < repetitions; round += 1) {
      samples.local.push(await local(server, root, round));
      samples.attach.push(await attached(server, root, round));
    }
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
  const base = median(samples.local);
  const ratio = median(samples.attach) / base;
  console.log(`${bin}; CPU of the terminal UI's own process for a 1 MiB answer (16-char chunks), 100x30, medians of ${repetitions}`);
  console.log(`local cairn "<task>": ${base} ms  (${samples.local.join(", ")})`);
  console.log(`cairn attach: ${median(samples.attach)} ms  (${samples.attach.join(", ")}) = ${ratio.toFixed(2)}x  goal <= 1x: ${ratio <= 1 ? "met" : "MISSED"}`);
  process.exitCode = ratio <= 1 ? 0 : 1;
}
