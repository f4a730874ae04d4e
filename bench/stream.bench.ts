/**
 * Stream cost against the SDK floor (issue 18). Side by side, interleaved, medians:
 * - the floor: bench/floor/read-stream.js only reads a streamed 1 MiB answer in
 *   12-character deltas with the official SDK (Anthropic Messages, OpenAI Chat
 *   Completions);
 * - `cairn run --json --yes` (the built bin/cairn, or $CAIRN_BENCH_BIN) for the same
 *   answer, ending in attempt_completion, with checkpoints off and on, for both tool
 *   protocols (XML in the text, native tool calls).
 * The scripted server runs in a process of its own (bench/stream/serve.ts), so its
 * CPU counts on neither side. Every measured process is started with
 * bench/floor/report-usage.js preloaded, which reports at exit its CPU time (own
 * threads plus the git children it waited for) and its peak RSS.
 * Each run has a fresh workspace and data folder but for cairn's code cache
 * (CAIRN_HOME/compile-cache), which is kept as an installation keeps it; a start
 * without it is measured by bench/startup.bench.ts.
 * Then a 200-turn task (small read_file and command turns): cairn's own CPU per
 * turn for turns 1-20 against 181-200, and its live heap after a collection.
 * Then, untimed: the peak live heap during the stream (a collection every 200 ms),
 * and the --json output of a slow stream (128 KiB, a delta every millisecond).
 * Goals: CPU <= 1.05x the floor with checkpoints off, <= 1.15x on; peak RSS <=
 * floor + 20 MB; --json output <= 2.2 MiB for the 1 MiB answer (2.2x the answer
 * for the slow one); per-turn CPU and live heap of turns 181-200 within 1.2x of
 * turns 1-20.
 * Environment: BENCH_REPETITIONS (default 9: a single run moves by up to 15 % on a shared machine) runs of each stream combination,
 * BENCH_TURN_REPETITIONS (default 3) timed 200-turn runs (plus one heap run),
 * BENCH_TURNS (default 200), BENCH_STREAM_BATCH_BYTES (default 16384: the 1 MiB
 * streams leave the server in blocks of that size, so floor and cairn get the same
 * socket reads, which cairn's OpenAI providers then hand to the SDK in pieces of at most
 * 1 KiB, src/llm/bounded-reads-fetch.ts; 0: one write per SSE frame), CAIRN_BENCH_BIN, CAIRN_BENCH_CHECKPOINTS_FLAG=0 (a
 * build without --no-checkpoints: only checkpoints-on runs).
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { answerCharacters, chunkSize, matchOf, slowAnswer, slowAnswerCharacters, slowMatch, toolProtocols } from "./stream/answers.js";
import type { ToolProtocol } from "./stream/answers.js";
import { runMeasured } from "./stream/measure-process.js";
import type { ProcessUsage } from "./stream/measure-process.js";
import { peakLiveHeap } from "./stream/live-heap.js";
import { startStreamServer } from "./stream/server-process.js";
import { pairMedian, perTurn, runManyTurns } from "./stream/turns.js";

const bin = process.env["CAIRN_BENCH_BIN"] ?? fileURLToPath(new URL("../bin/cairn", import.meta.url));
const knowsNoCheckpoints = process.env["CAIRN_BENCH_CHECKPOINTS_FLAG"] !== "0";
const repetitions = Number(process.env["BENCH_REPETITIONS"] ?? 9);
const turnRepetitions = Number(process.env["BENCH_TURN_REPETITIONS"] ?? 3);
const manyTurns = Number(process.env["BENCH_TURNS"] ?? 200);
// The 1 MiB streams leave the server in blocks of this size, so floor and cairn get the same socket reads
// (bench/stream/batch-writes.ts); 0: one write per SSE frame, as the scripted server writes them.
const batchBytes = Number(process.env["BENCH_STREAM_BATCH_BYTES"] ?? 16_384);
const floorProgram = fileURLToPath(new URL("./floor/read-stream.js", import.meta.url));

type Provider = "anthropic" | "openai";
const providers: readonly Provider[] = ["anthropic", "openai"];
type Side = "floor" | "checkpoints off" | "checkpoints on";
const sides: readonly Side[] = knowsNoCheckpoints ? ["floor", "checkpoints off", "checkpoints on"] : ["floor", "checkpoints on"];

const median = (values: number[]): number => {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const mib = (bytes: number): number => bytes / (1024 * 1024);

const root = await mkdtemp(join(tmpdir(), "cairn-bench-stream-"));
// Per tool protocol: a floor and two cairn runs per repetition and provider, plus the warm-up and live-heap runs.
const server = await startStreamServer(repetitions * providers.length * sides.length + 8 + providers.length, batchBytes);
// The slow stream is paced by the server frame by frame, so its server writes each frame.
const slowServer = await startStreamServer(4, 0);
const baseUrlOf = (url: string, provider: Provider): string => (provider === "openai" ? `${url}/v1` : url);
const baseUrl = (provider: Provider): string => baseUrlOf(server.url, provider);
let runCount = 0;

/** cairn's code cache (src/launch/), kept from run to run as an installation keeps it in its data folder. */
const compileCache = join(root, "compile-cache");

/**
 * Runs `run` in a fresh workspace and data folder, so checkpoints start from nothing each time;
 * only the code cache is carried over (copied in before and out after, unmeasured).
 */
async function inFreshFolder<T>(run: (workspace: string, env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
  const folder = join(root, `run-${(runCount += 1)}`);
  const workspace = join(folder, "workspace");
  const dataDir = join(folder, "data");
  await mkdir(workspace, { recursive: true });
  await writeFile(join(workspace, "README.md"), "# bench\n\nA workspace for the stream benchmark.\n");
  await cp(compileCache, join(dataDir, "compile-cache"), { recursive: true }).catch(() => undefined);
  try {
    return await run(workspace, { ...process.env, CAIRN_HOME: dataDir, XDG_CONFIG_HOME: join(folder, "config") });
  } finally {
    await cp(join(dataDir, "compile-cache"), compileCache, { recursive: true }).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  }
}

const cairnRun = (provider: Provider, checkpoints: boolean, more: string[], url = baseUrl(provider)): string[] => [
  bin,
  "run",
  "--yes",
  "--json",
  ...(checkpoints ? [] : ["--no-checkpoints"]),
  "--provider",
  provider,
  "--base-url",
  url,
  "--api-key",
  "bench",
  ...more,
];

function measure(provider: Provider, protocol: ToolProtocol, side: Side): Promise<ProcessUsage> {
  return inFreshFolder(async (workspace, env) => {
    if (side === "floor") {
      const usage = await runMeasured([floorProgram, provider, baseUrl(provider), matchOf(protocol)], { env, cwd: workspace });
      // A floor that read less than the whole answer would flatter cairn.
      const read = JSON.parse(usage.stdoutTail) as { text: number };
      if (read.text < answerCharacters) throw new Error(`the floor read ${read.text} characters, expected ${answerCharacters}`);
      return usage;
    }
    const usage = await runMeasured(cairnRun(provider, side === "checkpoints on", ["--tool-protocol", protocol, matchOf(protocol)]), { env, cwd: workspace });
    // Whatever the --json format, the answer's text is in it at least once.
    if (usage.stdoutBytes < answerCharacters) throw new Error(`cairn printed ${usage.stdoutBytes} bytes, less than the answer`);
    return usage;
  });
}

/** cairn's --json output for the slow stream (its size only: one run per provider, checkpoints off where the build knows how). */
function measureSlow(provider: Provider): Promise<ProcessUsage> {
  return inFreshFolder((workspace, env) => runMeasured(cairnRun(provider, !knowsNoCheckpoints, [slowMatch], baseUrlOf(slowServer.url, provider)), { env, cwd: workspace }));
}

/** Peak live heap during the 1 MiB stream (XML answer), floor or cairn with checkpoints off. */
function measureLiveHeap(provider: Provider, side: "floor" | "cairn"): Promise<{ peakMb: number; samples: number }> {
  return inFreshFolder((workspace, env) => {
    const args = side === "floor" ? [floorProgram, provider, baseUrl(provider), matchOf("xml")] : cairnRun(provider, !knowsNoCheckpoints, ["--tool-protocol", "xml", matchOf("xml")]);
    return peakLiveHeap(args, { env, cwd: workspace, everyMs: 200 });
  });
}

const samples = new Map<string, ProcessUsage[]>();
const liveHeaps = new Map<string, { peakMb: number; samples: number }>();
const slowRuns = new Map<Provider, ProcessUsage>();
const keyOf = (provider: Provider, protocol: ToolProtocol, side: Side): string => `${provider} ${protocol} ${side}`;
const turnRuns: Awaited<ReturnType<typeof runManyTurns>>[] = [];
let heapRun: Awaited<ReturnType<typeof runManyTurns>> | undefined;
try {
  // Warm-up (file cache, the server's JIT, cairn's code cache for each provider); not counted.
  await measure("anthropic", "xml", "floor");
  for (const provider of providers) await measure(provider, "xml", sides[1]!);
  for (let repetition = 0; repetition < repetitions; repetition += 1) {
    for (const provider of providers) {
      for (const protocol of toolProtocols) {
        // Rotate the order of floor and cairn runs, so neither always follows the other.
        const order = sides.map((_, index) => sides[(index + repetition) % sides.length]!);
        for (const side of order) {
          const key = keyOf(provider, protocol, side);
          samples.set(key, [...(samples.get(key) ?? []), await measure(provider, protocol, side)]);
        }
      }
    }
  }
  for (const provider of providers) {
    for (const side of ["floor", "cairn"] as const) liveHeaps.set(`${provider} ${side}`, await measureLiveHeap(provider, side));
  }
  for (const provider of providers) slowRuns.set(provider, await measureSlow(provider));
} finally {
  server.stop();
  slowServer.stop();
}
try {
  const extraArgs = knowsNoCheckpoints ? ["--no-checkpoints"] : [];
  for (let run = 0; run < turnRepetitions; run += 1) turnRuns.push(await runManyTurns({ bin, turns: manyTurns, heap: false, extraArgs }));
  heapRun = await runManyTurns({ bin, turns: manyTurns, heap: true, extraArgs });
} finally {
  await rm(root, { recursive: true, force: true });
}

let failures = 0;
const verdict = (passes: boolean): string => {
  if (!passes) failures += 1;
  return passes ? "PASS" : "FAIL";
};

console.log(`node ${process.version}, cairn ${bin}`);
console.log(`answer: ${mib(answerCharacters).toFixed(0)} MiB of text in ${chunkSize}-character deltas, then attempt_completion; ${repetitions} interleaved runs each, medians`);
console.log("CPU: the process's threads plus the children it waited for (git); RSS: peak resident set");
console.log(
  batchBytes > 0
    ? `the server sends the streams in ${(batchBytes / 1024).toFixed(0)} KiB blocks, so both sides get the same socket reads (cairn hands them to the OpenAI SDK in pieces of at most 1 KiB; the floor as they come)`
    : "the server writes each SSE frame on its own (socket reads then depend on each side's speed)",
);
const header = `${"".padEnd(36)} ${"CPU ms".padStart(7)} ${"x floor".padStart(8)} ${"RSS MB".padStart(7)} ${"+ floor".padStart(8)} ${"stdout".padStart(10)} ${"wall ms".padStart(8)}`;
for (const provider of providers) {
  for (const protocol of toolProtocols) {
    console.log(`\n${provider}, ${protocol} tools`);
    console.log(header);
    const floorRuns = samples.get(keyOf(provider, protocol, "floor")) ?? [];
    const floorCpu = median(floorRuns.map((run) => run.cpuMs));
    const floorRss = median(floorRuns.map((run) => run.maxRssMb));
    const goals: string[] = [];
    for (const side of sides) {
      const runs = samples.get(keyOf(provider, protocol, side)) ?? [];
      const cpu = median(runs.map((run) => run.cpuMs));
      const children = median(runs.map((run) => run.childrenMs));
      const rss = median(runs.map((run) => run.maxRssMb));
      const stdout = median(runs.map((run) => run.stdoutBytes));
      const wall = median(runs.map((run) => run.wallMs));
      const label = side === "floor" ? "floor (SDK, reads the stream)" : `cairn run --json, ${side}`;
      const ratio = cpu / floorCpu;
      const extra = rss - floorRss;
      console.log(
        `${label.padEnd(36)} ${cpu.toFixed(0).padStart(7)} ${side === "floor" ? "".padStart(8) : `${ratio.toFixed(2)}x`.padStart(8)} ${rss.toFixed(0).padStart(7)} ${side === "floor" ? "".padStart(8) : `${extra >= 0 ? "+" : ""}${extra.toFixed(0)}`.padStart(8)} ${side === "floor" ? "".padStart(10) : `${mib(stdout).toFixed(2)} MiB`.padStart(10)} ${wall.toFixed(0).padStart(8)}${children > 0 ? `  (git and other children: ${children.toFixed(0)} ms)` : ""}`,
      );
      if (side === "floor") continue;
      const cpuGoal = side === "checkpoints off" ? 1.05 : 1.15;
      goals.push(
        `  ${side}: CPU ${ratio.toFixed(2)}x (goal <= ${cpuGoal}x) ${verdict(ratio <= cpuGoal)}; RSS ${extra >= 0 ? "+" : ""}${extra.toFixed(0)} MB (goal <= +20 MB) ${verdict(extra <= 20)}; --json output ${mib(stdout).toFixed(2)} MiB (goal <= 2.2 MiB) ${verdict(mib(stdout) <= 2.2)}`,
      );
    }
    // Issue 33: the checkpoint work overlaps the stream, so with checkpoints on the answer ends about when the floor's does.
    const floorWall = median(floorRuns.map((run) => run.wallMs));
    const onWall = median((samples.get(keyOf(provider, protocol, "checkpoints on")) ?? []).map((run) => run.wallMs));
    const offWall = median((samples.get(keyOf(provider, protocol, "checkpoints off")) ?? []).map((run) => run.wallMs));
    const wallRatio = onWall / floorWall;
    goals.push(`  wall time: checkpoints on ${wallRatio.toFixed(2)}x the floor (goal <= 1.1x) ${verdict(wallRatio <= 1.1)}${Number.isNaN(offWall) ? "" : `; on / off ${(onWall / offWall).toFixed(2)}x`}`);
    for (const line of goals) console.log(line);
    // The spread shows how far one median can be trusted on a shared machine.
    console.log(`  CPU ms of each run, in run order: ${sides.map((side) => `${side} ${(samples.get(keyOf(provider, protocol, side)) ?? []).map((run) => run.cpuMs.toFixed(0)).join(" ")}`).join("; ")}`);
  }
}

console.log("\nlive heap during the stream (XML answer; a collection and a sample every 200 ms; untimed runs): peak");
for (const provider of providers) {
  const floor = liveHeaps.get(`${provider} floor`);
  const cairn = liveHeaps.get(`${provider} cairn`);
  if (floor === undefined || cairn === undefined) continue;
  console.log(`  ${provider}: floor ${floor.peakMb.toFixed(1)} MB (${floor.samples} samples), cairn ${cairn.peakMb.toFixed(1)} MB (${cairn.samples} samples)`);
}

console.log(`\nslow stream: ${slowAnswerCharacters / 1024} KiB in ${chunkSize}-character deltas, 1 ms apart, XML tools, one run each`);
// The whole answer as served: the prose and the attempt_completion after it.
const slowAnswerBytes = Buffer.byteLength(slowAnswer().text ?? "");
for (const [provider, run] of slowRuns) {
  const ratio = run.stdoutBytes / slowAnswerBytes;
  console.log(
    `  ${provider}: --json output ${(run.stdoutBytes / 1024).toFixed(1)} KiB for ${(slowAnswerBytes / 1024).toFixed(1)} KiB of answer: ${ratio.toFixed(2)}x (goal <= 2.2x) ${verdict(ratio <= 2.2)}; wall ${(run.wallMs / 1000).toFixed(1)} s`,
  );
}

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);
const lateFrom = manyTurns - 19;
console.log(
  `\n${manyTurns}-turn task (anthropic, XML tools, ${knowsNoCheckpoints ? "checkpoints off" : "checkpoints on"}; odd turns read_file, even turns execute_command): cairn's own CPU per turn, ${turnRepetitions} runs`,
);
const early: number[] = [];
const late: number[] = [];
for (const [index, run] of turnRuns.entries()) {
  const turns = perTurn(run);
  early.push(pairMedian(turns, 1, 20));
  late.push(pairMedian(turns, lateFrom, manyTurns));
  console.log(
    `  run ${index + 1}: turns 1-20 ${early.at(-1)!.toFixed(1)} ms/turn (median pair; all 20: ${sum(turns.slice(0, 20)).toFixed(0)} ms), turns ${lateFrom}-${manyTurns} ${late.at(-1)!.toFixed(1)} ms/turn (all 20: ${sum(turns.slice(lateFrom - 1)).toFixed(0)} ms); start-up to the first request ${run.cpuAtRequest[0]!.toFixed(0)} ms, wall ${(run.wallMs / 1000).toFixed(1)} s`,
  );
}
const turnRatio = median(late) / median(early);
console.log(`  per-turn CPU, turns ${lateFrom}-${manyTurns} / turns 1-20: ${turnRatio.toFixed(2)}x (goal <= 1.2x) ${verdict(turnRatio <= 1.2)}`);
if (heapRun !== undefined) {
  const heap = heapRun.heapAtRequest.map((bytes) => bytes / 1e6);
  const earlyHeap = median(heap.slice(1, 21));
  const lateHeap = median(heap.slice(lateFrom, manyTurns + 1));
  const heapRatio = lateHeap / earlyHeap;
  console.log(
    `  live heap after a collection: turns 1-20 ${earlyHeap.toFixed(1)} MB, turns ${lateFrom}-${manyTurns} ${lateHeap.toFixed(1)} MB (+${(((lateHeap - earlyHeap) * 1000) / Math.max(1, manyTurns - 20)).toFixed(0)} kB a turn): ${heapRatio.toFixed(2)}x (goal <= 1.2x) ${verdict(heapRatio <= 1.2)}`,
  );
}
console.log(failures === 0 ? "stream: all goals met" : `stream: ${failures} goal(s) missed`);
process.exitCode = failures === 0 ? 0 : 1;
