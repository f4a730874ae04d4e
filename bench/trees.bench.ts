/**
 * Large trees (issue 33): on a generated 50,000-file, ~400 MB repository
 * (bench/large-tree.ts: ignored dependencies and build output, nested
 * .gitignore files, a .git directory), `list_files` (recursive) and
 * `search_files` as the loop calls them (through the ToolExecutor) against
 * running `rg --files` and `rg PATTERN` directly, interleaved in the same run
 * (goal: within 1.2x), and the environment details' workspace listing (goal:
 * bounded in time and size). Run with `npm run bench -- trees` (BENCH_FILES,
 * BENCH_REPETITIONS to change the sizes). Exits with 1 when a goal is missed.
 * BENCH_BASELINE_SRC=<another checkout's src folder> adds that checkout's
 * search_files to the same interleaved runs (before/after in one run). Each
 * run's CPU time (this process's and its children's: rg) is reported beside
 * the wall time; on the shared machine it is the steadier of the two.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { environmentDetails } from "../src/prompt/environment-details.js";
import { createToolExecutor } from "../src/tools/create-tool-executor.js";
import { findRipgrep } from "../src/tools/search/find-ripgrep.js";
import { createRecordingContext } from "../src/tools/test-support/recording-context.js";
import { makeLargeTree } from "./large-tree.js";
import { median } from "./process-timing.js";

const fileCount = Number(process.env["BENCH_FILES"] ?? 50_000);
const repetitions = Number(process.env["BENCH_REPETITIONS"] ?? 9);
const rg = findRipgrep();
if (rg === undefined) throw new Error("no ripgrep");

/** Runs rg to its end in `cwd`, reading all its output (as a caller would). */
function ripgrep(args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg!, args, { cwd, stdio: ["ignore", "pipe", "ignore"] });
    let bytes = 0;
    child.stdout.on("data", (chunk: Buffer) => (bytes += chunk.length));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(bytes) : reject(new Error(`rg ${args.join(" ")} exited with ${code}`))));
  });
}

/** CPU time (user + system) of this process and of its reaped children, in ms (10 ms ticks for the children). */
function cpuNow(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const own = process.cpuUsage();
  return (own.user + own.system) / 1000 + (Number(fields[13]) + Number(fields[14])) * 10;
}

async function timeEach(runs: Record<string, () => Promise<unknown>>): Promise<{ wall: Record<string, number>; cpu: Record<string, number> }> {
  for (const run of Object.values(runs)) await run();
  const samples: Record<string, number[]> = {};
  const cpuSamples: Record<string, number[]> = {};
  for (let repetition = 0; repetition < repetitions; repetition += 1) {
    for (const [name, run] of Object.entries(runs)) {
      const cpu = cpuNow();
      const start = performance.now();
      await run();
      (samples[name] ??= []).push(performance.now() - start);
      (cpuSamples[name] ??= []).push(cpuNow() - cpu);
    }
  }
  const medians = (all: Record<string, number[]>) => Object.fromEntries(Object.entries(all).map(([name, values]) => [name, median(values)]));
  return { wall: medians(samples), cpu: medians(cpuSamples) };
}

const baselineSource = process.env["BENCH_BASELINE_SRC"];
const baseline = baselineSource === undefined ? undefined : ((await import(pathToFileURL(join(resolve(baselineSource), "tools", "create-tool-executor.ts")).href)) as { createToolExecutor: typeof createToolExecutor });

const base = mkdtempSync(join(tmpdir(), "cairn-trees-bench-"));
let missed = 0;
try {
  const start = performance.now();
  const tree = makeLargeTree(join(base, "repo"), fileCount);
  console.log(`tree: ${tree.files} files, ${(tree.bytes / 1_048_576).toFixed(0)} MB, made in ${((performance.now() - start) / 1000).toFixed(1)} s; load ${loadavg()[0]?.toFixed(2)}`);
  const executor = createToolExecutor({ workspace: tree.root, dataDir: join(base, "data"), yes: true, allowOutsideWrites: false, protocol: "xml" });
  let call = 0;
  const baselineExecutor = baseline?.createToolExecutor({ workspace: tree.root, dataDir: join(base, "data"), yes: true, allowOutsideWrites: false, protocol: "xml" });
  const tool =
    (name: string, params: Record<string, string>, on = executor) =>
    async () => {
      const outcome = await on.executeTool({ type: "tool_use", id: `b${call++}`, name, params, partial: false }, createRecordingContext());
      if (outcome.status !== "success") throw new Error(`${name} failed: ${JSON.stringify(outcome.content).slice(0, 300)}`);
      return outcome;
    };
  let listing = "";
  const { wall: medians, cpu } = await timeEach({
    "list_files . recursive": tool("list_files", { path: ".", recursive: "true" }),
    "rg --files": () => ripgrep(["--files"], tree.root),
    "search_files needle_marker": tool("search_files", { path: ".", regex: "needle_marker" }),
    ...(baselineExecutor === undefined ? {} : { "search_files needle_marker (baseline)": tool("search_files", { path: ".", regex: "needle_marker" }, baselineExecutor) }),
    "rg needle_marker": () => ripgrep(["needle_marker"], tree.root),
    "rg --json -C1 needle_marker (cairn's flags)": () => ripgrep(["--json", "--context", "1", "--no-require-git", "--regexp", "needle_marker", "--", tree.root], tree.root),
    "environment details (workspace listing)": async () => {
      listing = await environmentDetails({ workspace: tree.root, mode: "act", includeFileListing: true, contextTokens: 0, contextWindow: 200_000, now: new Date() });
    },
  });
  console.log(`${repetitions} interleaved runs, medians; load now ${loadavg()[0]?.toFixed(2)}`);
  for (const [name, value] of Object.entries(medians)) console.log(`${name.padEnd(46)} ${value.toFixed(1).padStart(8)} ms wall ${cpu[name]!.toFixed(1).padStart(8)} ms CPU`);
  const ratio = (name: string, floor: string, goal: number) => {
    const value = medians[name]! / medians[floor]!;
    const ok = value <= goal;
    if (!ok) missed += 1;
    console.log(`${name} / ${floor}: ${value.toFixed(2)}x wall (goal <= ${goal}x) ${ok ? "ok" : "MISSED"}; ${(cpu[name]! / cpu[floor]!).toFixed(2)}x CPU`);
  };
  ratio("list_files . recursive", "rg --files", 1.2);
  ratio("search_files needle_marker", "rg needle_marker", 1.2);
  if (baselineExecutor !== undefined) {
    const name = "search_files needle_marker (baseline)";
    console.log(`${name} / rg needle_marker: ${(medians[name]! / medians["rg needle_marker"]!).toFixed(2)}x wall; ${(cpu[name]! / cpu["rg needle_marker"]!).toFixed(2)}x CPU`);
  }
  const lines = listing.split("\n").length;
  const bounded = medians["environment details (workspace listing)"]! <= 1_000 && listing.length <= 20_000;
  if (!bounded) missed += 1;
  console.log(`environment details: ${listing.length} characters, ${lines} lines (goal: <= 1 s and <= 20,000 characters) ${bounded ? "ok" : "MISSED"}`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
process.exitCode = missed === 0 ? 0 : 1;
