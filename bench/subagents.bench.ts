/**
 * Issue #17: wall time of three read-only (explore) subagents run in parallel
 * (subagents.maxParallel 3) against the same three run one after the other
 * (maxParallel 1), and against the slowest of them run alone. Parallel must be
 * close to the slowest one. Each child's answers stream slowly from the
 * scripted server (as a real model's do), so the time is the model's, not cairn's CPU.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { resolveSettings } from "../src/config/index.js";
import { createSession } from "../src/session/session.js";
import type { Scenario } from "../src/llm/scripted/scenario.js";
import { startScriptedServer } from "../src/llm/scripted/server.js";
import { HeadlessHost } from "../src/ui/headless/index.js";

const repetitions = Number(process.env["BENCH_REPETITIONS"] ?? 3);
/** Per-frame delay of each child's answers (ms): three children of different lengths. */
const childDelays = [8, 12, 16];

function scenario(children: number[]): Scenario {
  const names = children.map((_, index) => `CHILD${index}`);
  const items = names.map((name) => ({ prompt: `${name}: list the workspace and report`, agent: "explore" }));
  return {
    turns: [{ text: `<use_subagents>\n<subagents>${JSON.stringify(items)}</subagents>\n</use_subagents>` }, { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" }],
    conversations: children.map((delayMs, index) => ({
      match: `${names[index] ?? ""}:`,
      turns: [
        { text: "Looking at the workspace first.\n<list_files>\n<path>.</path>\n</list_files>", chunkSize: 4, delayMs },
        { text: `<attempt_completion>\n<result>${names[index] ?? ""} found two files.</result>\n</attempt_completion>`, chunkSize: 4, delayMs },
      ],
    })),
  };
}

async function runOnce(root: string, label: string, children: number[], maxParallel: number): Promise<number> {
  const base = join(root, `${label}-${Math.random().toString(36).slice(2)}`);
  const workspace = join(base, "workspace");
  const configDir = join(base, "config");
  await mkdir(workspace, { recursive: true });
  await mkdir(configDir, { recursive: true });
  await writeFile(join(workspace, "a.txt"), "a\n");
  await writeFile(join(workspace, "b.txt"), "b\n");
  await writeFile(join(configDir, "config.json"), JSON.stringify({ subagents: { maxParallel } }));
  const server = await startScriptedServer({ scenario: scenario(children) });
  try {
    const settings = await resolveSettings({
      flags: { cwd: workspace, provider: "anthropic", baseUrl: server.url, apiKey: "bench-placeholder", yes: true, json: true, dataDir: join(base, "data") },
      env: {},
      cwd: workspace,
      userConfigDir: configDir,
    });
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    const host = new HeadlessHost({ json: true, stdout: sink, stderr: sink, stdin: undefined, taskId: "bench", onAsk: "deny", yes: true });
    const started = performance.now();
    const session = await createSession({ settings, host, start: { kind: "new", task: "bench" }, checkpoints: false });
    const result = await session.run();
    const elapsed = performance.now() - started;
    host.close();
    await session.close();
    if (result.status !== "completed") throw new Error(`${label}: task ${result.status}: ${result.error ?? ""}`);
    return elapsed;
  } finally {
    await server.close();
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const root = await mkdtemp(join(tmpdir(), "cairn-bench-subagents-"));
try {
  await runOnce(root, "warm-up", childDelays, 3);
  const parallel: number[] = [];
  const sequential: number[] = [];
  const slowestAlone: number[] = [];
  for (let index = 0; index < repetitions; index += 1) {
    parallel.push(await runOnce(root, "parallel", childDelays, 3));
    sequential.push(await runOnce(root, "sequential", childDelays, 1));
    slowestAlone.push(await runOnce(root, "slowest", [Math.max(...childDelays)], 1));
  }
  const parallelMs = median(parallel);
  const sequentialMs = median(sequential);
  const slowestMs = median(slowestAlone);
  console.log(`three explore subagents (per-frame delays ${childDelays.join(", ")} ms); ${repetitions} runs each, median wall time of the whole parent task`);
  console.log(`slowest child alone:           ${slowestMs.toFixed(0)} ms`);
  console.log(`three in parallel (limit 3):   ${parallelMs.toFixed(0)} ms`);
  console.log(`three one after the other:     ${sequentialMs.toFixed(0)} ms`);
  const closeness = parallelMs / slowestMs;
  console.log(`parallel / slowest alone: ${closeness.toFixed(2)}x (goal <= 1.25x) ${closeness <= 1.25 ? "PASS" : "FAIL"}`);
  console.log(`sequential / parallel:    ${(sequentialMs / parallelMs).toFixed(2)}x`);
} finally {
  await rm(root, { recursive: true, force: true });
}
