/**
 * The cost of OpenTelemetry (issue #36) on the 1 MiB stream of bench/stream.bench.ts:
 * `cairn run --json --yes --no-checkpoints` (Anthropic, XML tools) streaming a 1 MiB
 * answer in 12-character deltas, with telemetry off and on (OTLP/HTTP JSON to a
 * collector on loopback in this process, so the collector's CPU counts on neither
 * side), interleaved, medians of the processes' own CPU time (the same
 * report-usage preload as the stream bench). Goal: on <= 1.03x off, judged on the
 * median of the repetitions' own ratios (each pair ran back to back), the ratio of the
 * two medians printed beside it.
 * Environment: BENCH_REPETITIONS (default 9), CAIRN_BENCH_BIN.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { matchOf } from "./stream/answers.js";
import { runMeasured, type ProcessUsage } from "./stream/measure-process.js";
import { startStreamServer } from "./stream/server-process.js";
import { startOtlpReceiver } from "../src/telemetry/test-support/otlp-receiver.js";

const bin = process.env["CAIRN_BENCH_BIN"] ?? fileURLToPath(new URL("../bin/cairn", import.meta.url));
const repetitions = Number(process.env["BENCH_REPETITIONS"] ?? 9);
type Side = "telemetry off" | "telemetry on";
const sides: readonly Side[] = ["telemetry off", "telemetry on"];

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const root = await mkdtemp(join(tmpdir(), "cairn-bench-telemetry-"));
const server = await startStreamServer(repetitions * sides.length + 2, 16_384);
const collector = await startOtlpReceiver();
const compileCache = join(root, "compile-cache");
let runCount = 0;

async function run(side: Side): Promise<ProcessUsage> {
  const folder = join(root, `run-${(runCount += 1)}`);
  const workspace = join(folder, "workspace");
  const dataDir = join(folder, "data");
  await mkdir(workspace, { recursive: true });
  await writeFile(join(workspace, "README.md"), "# bench\n");
  await cp(compileCache, join(dataDir, "compile-cache"), { recursive: true }).catch(() => undefined);
  const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: dataDir, XDG_CONFIG_HOME: join(folder, "config") };
  for (const name of Object.keys(env)) if (name.startsWith("OTEL_")) delete env[name];
  if (side === "telemetry on") Object.assign(env, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
  try {
    const args = [bin, "run", "--yes", "--json", "--no-checkpoints", "--provider", "anthropic", "--base-url", server.url, "--api-key", "bench", "--tool-protocol", "xml", matchOf("xml")];
    return await runMeasured(args, { env, cwd: workspace });
  } finally {
    await cp(join(dataDir, "compile-cache"), compileCache, { recursive: true }).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  }
}

try {
  // Warm-up: the code cache, and the OTel chunk's first load.
  await run("telemetry off");
  await run("telemetry on");
  const results = new Map<Side, ProcessUsage[]>(sides.map((side) => [side, []]));
  for (let index = 0; index < repetitions; index += 1) {
    const order = index % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) results.get(side)!.push(await run(side));
  }
  const off = median(results.get("telemetry off")!.map((usage) => usage.selfMs));
  console.log(
    `telemetry bench: 1 MiB stream, ${repetitions} interleaved runs each, load ${(await import("node:os"))
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(" ")}`,
  );
  for (const side of sides) {
    const usages = results.get(side)!;
    const cpu = median(usages.map((usage) => usage.selfMs));
    console.log(
      `  ${side.padEnd(14)} CPU ${cpu.toFixed(0)} ms (${(cpu / off).toFixed(3)}x off)  wall ${median(usages.map((usage) => usage.wallMs)).toFixed(0)} ms  peak RSS ${median(usages.map((usage) => usage.maxRssMb)).toFixed(0)} MB`,
    );
  }
  const ratio = median(results.get("telemetry on")!.map((usage) => usage.selfMs)) / off;
  // Each repetition ran its two sides one after the other: the ratio within a pair leaves out the load's drift between pairs.
  const onRuns = results.get("telemetry on")!;
  const pairRatio = median(results.get("telemetry off")!.map((usage, index) => onRuns[index]!.selfMs / usage.selfMs));
  console.log(`  ratio of the medians ${ratio.toFixed(3)}x; median of the ${repetitions} pairs' ratios ${pairRatio.toFixed(3)}x`);
  console.log(`  spans received: ${collector.spans.length}; goal CPU on <= 1.03x off: ${pairRatio <= 1.03 ? "MET" : "MISSED"} (pairs ${pairRatio.toFixed(3)}x)`);
} finally {
  server.stop();
  await collector.close();
  await rm(root, { recursive: true, force: true });
}
