/**
 * The 200-turn task (issue 18): `cairn run` in its own process against the
 * scripted server in this process. When request N reaches the server, cairn is
 * waiting for its answer, so its CPU time read then (the sum of its threads'
 * schedstat, to the nanosecond; not the shells it starts) closes turn N.
 * In a separate run (the collection costs CPU) each request also sends cairn a
 * SIGUSR2, on which the preloaded report-usage.js collects garbage and records
 * the live heap.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startScriptedServer } from "../../src/llm/scripted/server.js";
import { manyTurnsScenario } from "./answers.js";
import { procThreadsCpuMs, runMeasured } from "./measure-process.js";

export interface ManyTurnsRun {
  /** cairn's own CPU time when request N arrived (N = 0 .. turns), in ms. */
  cpuAtRequest: number[];
  /** Live heap after a collection when request N arrived, in bytes (heap runs only). */
  heapAtRequest: number[];
  wallMs: number;
}

export async function runManyTurns(options: { bin: string; turns: number; heap: boolean; extraArgs: string[] }): Promise<ManyTurnsRun> {
  const root = await mkdtemp(join(tmpdir(), "cairn-bench-turns-"));
  const server = await startScriptedServer({ scenario: manyTurnsScenario(options.turns) });
  try {
    const workspace = join(root, "workspace");
    await mkdir(join(workspace, "notes"), { recursive: true });
    for (let index = 0; index < 10; index += 1) {
      await writeFile(join(workspace, "notes", `file-${index}.txt`), `Note ${index}: the build passes and the tests are green.\n`.repeat(8));
    }
    const heapFile = join(root, "heap.txt");
    const env = {
      ...process.env,
      CAIRN_HOME: join(root, "data"),
      XDG_CONFIG_HOME: join(root, "config"),
      ...(options.heap ? { BENCH_HEAP_FILE: heapFile } : {}),
    };
    let pid: number | undefined;
    let exited = false;
    const run = runMeasured([options.bin, "run", "--yes", "--json", ...options.extraArgs, "--provider", "anthropic", "--base-url", server.url, "--api-key", "bench", "bench-turns"], {
      env,
      cwd: workspace,
      nodeOptions: options.heap ? ["--expose-gc"] : [],
      onSpawn: (spawned) => (pid = spawned),
    }).finally(() => (exited = true));
    const cpuAtRequest: number[] = [];
    const gone = run.then(
      () => "exited" as const,
      () => "exited" as const,
    );
    for (let request = 0; request <= options.turns; request += 1) {
      const outcome = await Promise.race([server.waitForChunks(request, 1).then(() => "arrived" as const), gone]);
      if (outcome === "exited" || exited || pid === undefined) break;
      cpuAtRequest.push(procThreadsCpuMs(pid));
      if (options.heap) process.kill(pid, "SIGUSR2");
    }
    const usage = await run;
    if (cpuAtRequest.length !== options.turns + 1) throw new Error(`cairn made ${cpuAtRequest.length} requests, expected ${options.turns + 1}`);
    const heapAtRequest = options.heap ? (await readFile(heapFile, "utf8")).trim().split("\n").map(Number) : [];
    return { cpuAtRequest, heapAtRequest, wallMs: usage.wallMs };
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
}

/** Turn N's CPU: from request N-1 reaching the server to request N (N = 1 .. turns). */
export const perTurn = (run: { cpuAtRequest: number[] }): number[] => run.cpuAtRequest.slice(1).map((cpu, index) => cpu - run.cpuAtRequest[index]!);

/**
 * Odd turns read a file and even turns run a command: a window is judged on the median of its
 * read+command pairs, so a one-off cost (the first command loads its parser) does not decide it.
 */
export function pairMedian(turns: number[], from: number, to: number): number {
  const pairs: number[] = [];
  for (let turn = from; turn < to; turn += 2) pairs.push(turns[turn - 1]! + turns[turn]!);
  const sorted = pairs.sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return (sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2) / 2;
}
