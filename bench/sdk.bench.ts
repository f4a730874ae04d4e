/**
 * The SDK against the CLI (docs/sdk.md): the stream benchmark's 1 MiB answer
 * (bench/stream/answers.ts, 12-character deltas, then attempt_completion) run
 * through `startTask` by bench/sdk/consume.js, a program that consumes every
 * event, and through `cairn run --json --yes` (the built bin/cairn), both with
 * checkpoints off, side by side, interleaved, medians. Both are measured alike
 * (bench/stream/measure-process.ts: CPU time of the process's threads plus the
 * children it waited for, read inside it by bench/floor/report-usage.js); the
 * scripted server runs in a process of its own (bench/stream/serve.ts) and
 * sends the streams in 16 KiB blocks, as the stream benchmark does.
 * Each run has a fresh workspace and data folder; the CLI's code cache
 * (CAIRN_HOME/compile-cache) is carried over, as an installation keeps it.
 * The SDK is an ES module, for which Node 20 keeps no code cache.
 * Goal: SDK CPU <= 1.05x the CLI's.
 * Environment: BENCH_REPETITIONS (default 7) runs of each side per provider and tool protocol.
 * Needs `npm run build` (both sides run the built dist/).
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { answerCharacters, matchOf, toolProtocols } from "./stream/answers.js";
import type { ToolProtocol } from "./stream/answers.js";
import { runMeasured } from "./stream/measure-process.js";
import type { ProcessUsage } from "./stream/measure-process.js";
import { startStreamServer } from "./stream/server-process.js";

const bin = fileURLToPath(new URL("../bin/cairn", import.meta.url));
const sdkProgram = fileURLToPath(new URL("./sdk/consume.js", import.meta.url));
const repetitions = Number(process.env["BENCH_REPETITIONS"] ?? 7);
const batchBytes = 16_384;

type Provider = "anthropic" | "openai";
const providers: readonly Provider[] = ["anthropic", "openai"];
type Side = "cli" | "sdk";
const sides: readonly Side[] = ["cli", "sdk"];

const median = (values: number[]): number => {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const root = await mkdtemp(join(tmpdir(), "cairn-bench-sdk-"));
const server = await startStreamServer(repetitions * sides.length * providers.length + providers.length * sides.length, batchBytes);
const baseUrl = (provider: Provider): string => (provider === "openai" ? `${server.url}/v1` : server.url);
const compileCache = join(root, "compile-cache");
let runCount = 0;

async function measure(provider: Provider, protocol: ToolProtocol, side: Side): Promise<ProcessUsage> {
  const folder = join(root, `run-${(runCount += 1)}`);
  const workspace = join(folder, "workspace");
  const dataDir = join(folder, "data");
  await mkdir(workspace, { recursive: true });
  await writeFile(join(workspace, "README.md"), "# bench\n\nA workspace for the SDK benchmark.\n");
  await cp(compileCache, join(dataDir, "compile-cache"), { recursive: true }).catch(() => undefined);
  const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: dataDir, XDG_CONFIG_HOME: join(folder, "config"), HOME: join(folder, "home"), CLAUDE_CONFIG_DIR: join(folder, "claude") };
  try {
    const args =
      side === "cli"
        ? [bin, "run", "--yes", "--json", "--no-checkpoints", "--provider", provider, "--base-url", baseUrl(provider), "--api-key", "bench", "--tool-protocol", protocol, matchOf(protocol)]
        : [sdkProgram, provider, baseUrl(provider), protocol, matchOf(protocol)];
    const usage = await runMeasured(args, { env, cwd: workspace });
    if (side === "sdk") {
      const seen = JSON.parse(usage.stdoutTail) as { text: number; status: string };
      if (seen.status !== "completed" || seen.text < answerCharacters) throw new Error(`the SDK program saw ${seen.text} characters (${seen.status}), expected ${answerCharacters} (completed)`);
    } else if (usage.stdoutBytes < answerCharacters) {
      throw new Error(`cairn printed ${usage.stdoutBytes} bytes, less than the answer`);
    }
    return usage;
  } finally {
    await cp(join(dataDir, "compile-cache"), compileCache, { recursive: true }).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  }
}

const samples = new Map<string, ProcessUsage[]>();
const keyOf = (provider: Provider, protocol: ToolProtocol, side: Side): string => `${provider} ${protocol} ${side}`;
try {
  // Warm-up (file cache, the server's JIT, the CLI's code cache); not counted.
  for (const provider of providers) for (const side of sides) await measure(provider, "xml", side);
  for (let repetition = 0; repetition < repetitions; repetition += 1) {
    for (const provider of providers) {
      for (const protocol of toolProtocols) {
        // Alternate which side goes first.
        const order = repetition % 2 === 0 ? sides : [...sides].reverse();
        for (const side of order) {
          const key = keyOf(provider, protocol, side);
          samples.set(key, [...(samples.get(key) ?? []), await measure(provider, protocol, side)]);
        }
      }
    }
  }
} finally {
  server.stop();
  await rm(root, { recursive: true, force: true });
}

let failures = 0;
console.log(`node ${process.version}; 1 MiB answer in 12-character deltas, checkpoints off; ${repetitions} interleaved runs each, medians`);
console.log(`${"provider, tools".padEnd(20)} ${"CLI CPU ms".padStart(11)} ${"SDK CPU ms".padStart(11)} ${"SDK / CLI".padStart(10)} ${"CLI RSS MB".padStart(11)} ${"SDK RSS MB".padStart(11)}  goal: SDK <= 1.05x CLI`);
for (const provider of providers) {
  for (const protocol of toolProtocols) {
    const cli = samples.get(keyOf(provider, protocol, "cli")) ?? [];
    const sdk = samples.get(keyOf(provider, protocol, "sdk")) ?? [];
    const cliCpu = median(cli.map((run) => run.cpuMs));
    const sdkCpu = median(sdk.map((run) => run.cpuMs));
    const ratio = sdkCpu / cliCpu;
    const passes = ratio <= 1.05;
    if (!passes) failures += 1;
    console.log(
      `${`${provider}, ${protocol}`.padEnd(20)} ${cliCpu.toFixed(0).padStart(11)} ${sdkCpu.toFixed(0).padStart(11)} ${`${ratio.toFixed(2)}x`.padStart(10)} ${median(cli.map((run) => run.maxRssMb))
        .toFixed(0)
        .padStart(11)} ${median(sdk.map((run) => run.maxRssMb))
        .toFixed(0)
        .padStart(11)}  ${passes ? "PASS" : "FAIL"}`,
    );
    console.log(`  CPU ms of each run: CLI ${cli.map((run) => run.cpuMs.toFixed(0)).join(" ")}; SDK ${sdk.map((run) => run.cpuMs.toFixed(0)).join(" ")}`);
  }
}
console.log(failures === 0 ? "sdk: all goals met" : `sdk: ${failures} goal(s) missed`);
process.exitCode = failures === 0 ? 0 : 1;
