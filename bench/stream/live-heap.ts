/**
 * The live heap of a process during a stream (issue 18: a stall guard that kept
 * every chunk reachable grew it 17 -> 76 MB mid-stream). The process runs with
 * --expose-gc and bench/floor/report-usage.js, which every `everyMs` collects
 * garbage and records heapUsed (a timer of its own: a signal could arrive while
 * node shuts down). The collections cost CPU, so these runs are not timed.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runMeasured } from "./measure-process.js";

export async function peakLiveHeap(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string; everyMs: number }): Promise<{ peakMb: number; samples: number }> {
  const folder = await mkdtemp(join(tmpdir(), "cairn-bench-heap-"));
  const heapFile = join(folder, "heap.txt");
  try {
    await runMeasured(args, {
      env: { ...options.env, BENCH_HEAP_FILE: heapFile, BENCH_HEAP_EVERY_MS: String(options.everyMs) },
      cwd: options.cwd,
      nodeOptions: ["--expose-gc"],
    });
    const samples = (await readFile(heapFile, "utf8")).trim().split("\n").filter(Boolean).map(Number);
    return { peakMb: Math.max(...samples) / 1e6, samples: samples.length };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
