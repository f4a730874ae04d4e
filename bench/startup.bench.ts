/**
 * Start-up (issue 6): `cairn --version` and the time from launching `cairn run`
 * to its first request reaching the model, each against bare `node -e 0`
 * started the same way in the same run. Goal: --version < 100 ms over node.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startScriptedServer } from "../src/llm/scripted/server.js";

const bin = fileURLToPath(new URL("../bin/cairn", import.meta.url));
const runs = Number(process.env["BENCH_REPETITIONS"] ?? 15);

function timeProcess(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { stdio: "ignore" });
    child.on("error", reject);
    child.on("exit", () => resolve(performance.now() - start));
  });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const node: number[] = [];
const version: number[] = [];
const help: number[] = [];
for (let index = 0; index < runs; index += 1) {
  node.push(await timeProcess(["-e", "0"]));
  version.push(await timeProcess([bin, "--version"]));
  help.push(await timeProcess([bin, "--help"]));
}

const root = await mkdtemp(join(tmpdir(), "cairn-bench-startup-"));
const firstRequest: number[] = [];
try {
  const turns = Array.from({ length: runs }, () => ({ text: "<attempt_completion>\n<result>ok</result>\n</attempt_completion>" }));
  const server = await startScriptedServer({ scenario: { turns } });
  const env = { ...process.env, CAIRN_HOME: join(root, "data"), XDG_CONFIG_HOME: join(root, "config") };
  for (let index = 0; index < runs; index += 1) {
    const seen = server.requests.length;
    const start = performance.now();
    const child = spawn(process.execPath, [bin, "run", "--yes", "--json", "--provider", "anthropic", "--base-url", server.url, "--api-key", "bench", "go"], {
      stdio: "ignore",
      env,
      cwd: root,
    });
    while (server.requests.length === seen) await new Promise((resolve) => setTimeout(resolve, 2));
    firstRequest.push(performance.now() - start);
    await new Promise((resolve) => child.on("exit", resolve));
  }
  await server.close();
} finally {
  await rm(root, { recursive: true, force: true });
}

const overhead = median(version) - median(node);
console.log(`${runs} runs each, medians of wall time`);
console.log(`node -e 0:                  ${median(node).toFixed(0)} ms`);
console.log(`cairn --version:            ${median(version).toFixed(0)} ms (+${overhead.toFixed(0)} ms; goal < 100 ms) ${overhead < 100 ? "PASS" : "FAIL"}`);
console.log(`cairn --help:               ${median(help).toFixed(0)} ms (+${(median(help) - median(node)).toFixed(0)} ms)`);
console.log(`cairn run, first request:   ${median(firstRequest).toFixed(0)} ms (+${(median(firstRequest) - median(node)).toFixed(0)} ms over node)`);
