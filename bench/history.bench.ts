/**
 * Long histories (issue 33): `cairn history`, `cairn history --json`, `cairn -c`
 * up to its first request, and the `cairn --resume` picker, with 10,000 tasks in
 * the data folder (bench/long-history.ts: copies of one real task over 20
 * workspaces), against `node -e 0`, `cairn --version` and `cairn run` (a new task,
 * empty data folder) to its first request, interleaved in the same run. Goal: each
 * answers in <= 200 ms (wall, median) where node starts in ~40 ms, judged as at
 * most 160 ms over its floor in the same run (`node -e 0`; for -c, `cairn run`). The first `cairn history` after the folder
 * is filled builds the index from the logs once and is printed apart; so is the
 * store's own `list()` in this process. Run with `npm run bench -- history`
 * (BENCH_TASKS, BENCH_REPETITIONS to change the sizes). `cairn history` prints the
 * newest 50 by default; `--json --all` (every task) is timed beside it.
 * BENCH_BASELINE_BIN (another checkout's bin/cairn, built) times that build's
 * `history`, `history --json` and picker in the same interleaved runs, on the same
 * data folder. Exits with 1 when a goal is missed.
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startScriptedServer } from "../src/llm/scripted/server.js";
import { TaskStore } from "../src/store/task-store.js";
import { cairnBin, fillLongHistory, runCairn } from "./long-history.js";
import { mean, median, timeProcess, timeUntil, type Sample } from "./process-timing.js";

const taskCount = Number(process.env["BENCH_TASKS"] ?? 10_000);
const runs = Number(process.env["BENCH_REPETITIONS"] ?? 11);
const baselineBin = process.env["BENCH_BASELINE_BIN"];
const GOAL_MS = 200;

const root = await mkdtemp(join(tmpdir(), "cairn-history-bench-"));
const dataDir = join(root, "data");
const emptyDataDir = join(root, "empty-data");
mkdirSync(emptyDataDir);
const env = { ...process.env, CAIRN_HOME: dataDir, XDG_CONFIG_HOME: join(root, "config") };
const emptyEnv = { ...env, CAIRN_HOME: emptyDataDir };
const done = { text: "<attempt_completion>\n<result>ok</result>\n</attempt_completion>" };
const server = await startScriptedServer({ scenario: { turns: Array.from({ length: runs * 4 + 4 }, () => done) } });

const samples: Record<string, Sample[]> = {};
const add = (name: string, sample: Sample) => (samples[name] ??= []).push(sample);

/** Launch to first request at the scripted server. */
async function firstRequest(args: string[], cwd: string, environment: NodeJS.ProcessEnv): Promise<Sample> {
  const seen = server.requests.length;
  const timed = await timeUntil(
    () => spawn(process.execPath, [cairnBin, ...args], { stdio: "ignore", env: environment, cwd }),
    () => server.requests.length > seen,
  );
  await new Promise((resolve) => (timed.child.exitCode !== null ? resolve(undefined) : timed.child.on("exit", resolve)));
  return timed;
}

/** `cairn --resume` on a terminal (script(1) gives it one) until its picker asks which task. */
async function resumePicker(cwd: string, bin = cairnBin): Promise<Sample> {
  let output = "";
  const timed = await timeUntil(
    () => {
      const child = spawn("script", ["-qfec", `${process.execPath} ${bin} --resume --provider anthropic --api-key bench`, "/dev/null"], { cwd, env, stdio: ["pipe", "pipe", "ignore"], detached: true });
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      return child;
    },
    () => output.includes("Resume which?"),
  );
  process.kill(-timed.child.pid!, "SIGKILL");
  await new Promise((resolve) => (timed.child.exitCode !== null || timed.child.signalCode !== null ? resolve(undefined) : timed.child.on("exit", resolve)));
  if (!/ 1\. .+ 2\. /s.test(output)) throw new Error(`the picker listed no tasks: ${output}`);
  return { wall: timed.wall, cpu: Number.NaN };
}

try {
  const fillStart = performance.now();
  const history = await fillLongHistory({ root, dataDir, count: taskCount, workspaceCount: 20 });
  const workspace = history.workspaces[0]!;
  console.log(
    `${taskCount} tasks (a ${(history.seedLogBytes / 1024).toFixed(0)} KB log each) written in ${((performance.now() - fillStart) / 1000).toFixed(1)} s; load: ${(await import("node:os"))
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")}`,
  );

  const firstHistory = performance.now();
  const listed = runCairn(["history", "--json", "--all"], { cwd: workspace, env });
  const rows = JSON.parse(listed) as Array<{ status: string }>;
  console.log(`first cairn history --json (the index built from the logs): ${(performance.now() - firstHistory).toFixed(0)} ms, ${rows.length} rows, ${rows.filter((row) => row.status === "aborted").length} aborted`);
  if (rows.length !== taskCount) throw new Error(`cairn history listed ${rows.length} tasks, not ${taskCount}`);

  const base = { cwd: workspace, env };
  const resumeArgs = ["-c", "-p", "--yes", "--no-checkpoints", "--provider", "anthropic", "--base-url", server.url, "--api-key", "bench", "go on"];
  const newArgs = ["run", "--yes", "--no-checkpoints", "--provider", "anthropic", "--base-url", server.url, "--api-key", "bench", "go"];
  // One of each first, so that code caches are warm.
  await timeProcess([cairnBin, "history"], base);
  if (baselineBin !== undefined) await timeProcess([baselineBin, "history"], base);
  await firstRequest(resumeArgs, workspace, env);
  await firstRequest(newArgs, workspace, emptyEnv);
  for (let index = 0; index < runs; index += 1) {
    add("node -e 0", await timeProcess(["-e", "0"], base));
    add("cairn --version", await timeProcess([cairnBin, "--version"], base));
    add("cairn history", await timeProcess([cairnBin, "history"], base));
    add("cairn history --json", await timeProcess([cairnBin, "history", "--json"], base));
    add("cairn history --json --all", await timeProcess([cairnBin, "history", "--json", "--all"], base));
    if (baselineBin !== undefined) {
      add("baseline: cairn history", await timeProcess([baselineBin, "history"], base));
      add("baseline: cairn history --json", await timeProcess([baselineBin, "history", "--json"], base));
      add("baseline: cairn --resume: the picker", await resumePicker(workspace, baselineBin));
    }
    add("cairn run, empty data folder: first request", await firstRequest(newArgs, workspace, emptyEnv));
    add("cairn -c: first request", await firstRequest(resumeArgs, workspace, env));
    add("cairn --resume: the picker", await resumePicker(workspace));
    const store = new TaskStore({ dataDir });
    const listStart = performance.now();
    const listedRows = await store.list();
    add("TaskStore.list() in process", { wall: performance.now() - listStart, cpu: Number.NaN });
    if (listedRows.length !== taskCount) throw new Error(`list() gave ${listedRows.length} rows`);
  }
} finally {
  await server.close();
  await rm(root, { recursive: true, force: true });
}

let missed = 0;
console.log(`node ${process.version}, ${taskCount} tasks, ${runs} interleaved runs; wall: median, CPU: mean (10 ms ticks); load now ${(await import("node:os")).loadavg()[0]?.toFixed(2)}`);
const wallOf = (name: string) => median((samples[name] ?? []).map((sample) => sample.wall));
// The goal (<= 200 ms) assumes node itself starts in about 40 ms; on a loaded machine it is judged over the floors of the same run.
const floors: Record<string, string> = {
  "cairn history": "node -e 0",
  "cairn history --json": "node -e 0",
  "cairn --resume: the picker": "node -e 0",
  "cairn -c: first request": "cairn run, empty data folder: first request",
};
for (const [name, list] of Object.entries(samples)) {
  const wall = wallOf(name);
  const cpu = mean(list.map((sample) => sample.cpu));
  const floor = floors[name];
  let verdict = "";
  if (floor !== undefined) {
    const over = wall - wallOf(floor);
    const ok = over <= GOAL_MS - 40;
    if (!ok) missed += 1;
    verdict = `  ${over >= 0 ? "+" : ""}${over.toFixed(0)} ms over ${floor} (goal <= +${GOAL_MS - 40} ms) ${ok ? "ok" : "MISSED"}`;
  }
  console.log(`${name.padEnd(46)} ${wall.toFixed(0).padStart(6)} ms ${Number.isNaN(cpu) ? "".padStart(9) : `${cpu.toFixed(0).padStart(6)} ms`}${verdict}`);
}
process.exitCode = missed === 0 ? 0 : 1;
