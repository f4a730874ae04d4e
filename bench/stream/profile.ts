/**
 * Where cairn's CPU goes on the stream benchmark's 1 MiB answer (issue 18):
 * runs the floor and `cairn run --json --no-checkpoints` a few times each with
 * `node --cpu-prof` and prints self time per function (main thread; idle left
 * out), for cairn, for the floor, and cairn minus floor. Functions of the
 * bundled dist/ are named by the source file esbuild's `// src/...` marker gives.
 * Usage (after npm run build): node --import tsx bench/stream/profile.ts [anthropic|openai] [xml|native] [RUNS] [TOP]
 * BENCH_PROFILE_AGAINST=sdk: the SDK program of bench/sdk.bench.ts (bench/sdk/consume.js) in the floor's place,
 * printed as "sdk" (and "sdk minus cairn run --json").
 * (BENCH_PROFILE_INTERVAL_US: the sampling interval, default 1000 us; shorter intervals slow the process more;
 * BENCH_STREAM_BATCH_BYTES as for the stream bench).
 */
import { readFileSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { matchOf } from "./answers.js";
import { runMeasured } from "./measure-process.js";
import { startStreamServer } from "./server-process.js";

const [provider = "anthropic", protocol = "xml", runsText = "3", topText = "15"] = process.argv.slice(2);
if (provider !== "anthropic" && provider !== "openai") throw new Error(`provider: anthropic or openai, not ${provider}`);
if (protocol !== "xml" && protocol !== "native") throw new Error(`tool protocol: xml or native, not ${protocol}`);
const runs = Number(runsText);
const top = Number(topText);
const bin = process.env["CAIRN_BENCH_BIN"] ?? fileURLToPath(new URL("../../bin/cairn", import.meta.url));
const floorProgram = fileURLToPath(new URL("../floor/read-stream.js", import.meta.url));
const againstSdk = process.env["BENCH_PROFILE_AGAINST"] === "sdk";
const sdkProgram = fileURLToPath(new URL("../sdk/consume.js", import.meta.url));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const markers = new Map<string, string[]>();
/** The source a bundled function came from: the nearest `// src/...` (or node_modules) line above it. */
function sourceOf(url: string, line: number): string {
  // The CLI bundle runs as a vm.Script named by its path (src/launch/load-bundle.ts); modules have file URLs.
  if (!url.startsWith("file://") && !url.startsWith("/")) return url;
  const path = url.startsWith("file://") ? fileURLToPath(url) : url;
  if (!path.includes("/dist/")) return path.replace(/.*\/node_modules\//, "node_modules/");
  let lines = markers.get(path);
  if (lines === undefined) {
    lines = readFileSync(path, "utf8").split("\n");
    markers.set(path, lines);
  }
  for (let index = line; index >= 0; index -= 1) {
    const match = /^\/\/ ((?:src|node_modules)\/\S+)/.exec(lines[index] ?? "");
    if (match?.[1]) return match[1];
  }
  return path.replace(/.*\/dist\//, "dist/");
}

/** Mean self time per function over the profiles in `folder`, in ms, and the mean busy total. */
function selfTimes(folder: string): { total: number; byFunction: Map<string, number> } {
  const files = readdirSync(folder).filter((file) => file.endsWith(".cpuprofile"));
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(folder, file), "utf8")) as CpuProfile;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    profile.samples.forEach((id, index) => {
      const frame = nodes.get(id)?.callFrame;
      if (frame === undefined || frame.functionName === "(idle)") return;
      const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000 / files.length;
      const key = `${frame.functionName || "(anonymous)"}  ${frame.url ? sourceOf(frame.url, frame.lineNumber) : ""}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
      total += ms;
    });
  }
  return { total, byFunction };
}

function print(title: string, rows: [string, number][], total: number): void {
  console.log(`\n${title}`);
  for (const [name, ms] of rows.slice(0, top)) console.log(`${ms.toFixed(1).padStart(8)} ms ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${name}`);
}

const root = await mkdtemp(join(tmpdir(), "cairn-bench-profile-"));
// A floor and a cairn request per run; blocks as the stream bench sends them (BENCH_STREAM_BATCH_BYTES).
const server = await startStreamServer(runs * 2 + 1, Number(process.env["BENCH_STREAM_BATCH_BYTES"] ?? 16_384));
try {
  const baseUrl = provider === "openai" ? `${server.url}/v1` : server.url;
  const env = { ...process.env, CAIRN_HOME: join(root, "data"), XDG_CONFIG_HOME: join(root, "config") };
  const workspace = join(root, "workspace");
  await mkdir(workspace, { recursive: true });
  for (let run = 0; run < runs; run += 1) {
    const profileOf = (side: string): string[] => ["--cpu-prof", "--cpu-prof-interval", process.env["BENCH_PROFILE_INTERVAL_US"] ?? "1000", "--cpu-prof-dir", join(root, side)];
    const other = againstSdk ? [sdkProgram, provider, baseUrl, protocol, matchOf(protocol)] : [floorProgram, provider, baseUrl, matchOf(protocol)];
    await runMeasured(other, { env, cwd: workspace, nodeOptions: profileOf("floor") });
    const args = [bin, "run", "--yes", "--json", "--no-checkpoints", "--tool-protocol", protocol, "--provider", provider, "--base-url", baseUrl, "--api-key", "bench", matchOf(protocol)];
    await runMeasured(args, { env, cwd: workspace, nodeOptions: profileOf("cairn") });
  }
  const cairn = selfTimes(join(root, "cairn"));
  const floor = selfTimes(join(root, "floor"));
  const sorted = (map: Map<string, number>): [string, number][] => [...map].sort((a, b) => b[1] - a[1]);
  console.log(`${provider}, ${protocol} tools, ${runs} runs each; main-thread self time, mean per run (sampled, so it runs slower than unprofiled)`);
  print(`cairn: ${cairn.total.toFixed(0)} ms busy`, sorted(cairn.byFunction), cairn.total);
  print(`${againstSdk ? "sdk" : "floor"}: ${floor.total.toFixed(0)} ms busy`, sorted(floor.byFunction), floor.total);
  if (againstSdk) {
    const names = new Set([...floor.byFunction.keys(), ...cairn.byFunction.keys()]);
    const difference = new Map([...names].map((name) => [name, (floor.byFunction.get(name) ?? 0) - (cairn.byFunction.get(name) ?? 0)]));
    print(`sdk minus cairn run --json: ${(floor.total - cairn.total).toFixed(0)} ms`, sorted(difference), floor.total - cairn.total);
  } else {
    const difference = new Map([...cairn.byFunction].map(([name, ms]) => [name, ms - (floor.byFunction.get(name) ?? 0)]));
    print(`cairn minus floor: ${(cairn.total - floor.total).toFixed(0)} ms`, sorted(difference), cairn.total - floor.total);
  }
} finally {
  server.stop();
  await rm(root, { recursive: true, force: true });
}
