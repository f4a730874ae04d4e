/**
 * The live heap of a process during a stream (issue 18: a stall guard that kept
 * every chunk reachable grew it 17 -> 76 MB mid-stream). The process runs with
 * --expose-gc and bench/floor/report-usage.js, which on each SIGUSR2 collects
 * garbage and records heapUsed; the signal is sent every `everyMs` once the
 * preload says its handler is in place. The collections cost CPU, so these
 * runs are not timed.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runMeasured } from "./measure-process.js";

export async function peakLiveHeap(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string; everyMs: number }): Promise<{ peakMb: number; samples: number }> {
  const folder = await mkdtemp(join(tmpdir(), "cairn-bench-heap-"));
  const heapFile = join(folder, "heap.txt");
  let timer: NodeJS.Timeout | undefined;
  try {
    await runMeasured(args, {
      env: { ...options.env, BENCH_HEAP_FILE: heapFile },
      cwd: options.cwd,
      nodeOptions: ["--expose-gc"],
      onSpawn: (pid) => {
        timer = setInterval(() => {
          if (!existsSync(heapFile)) return;
          try {
            process.kill(pid, "SIGUSR2");
          } catch {
            // Already gone.
          }
        }, options.everyMs);
      },
    }).finally(() => clearInterval(timer));
    const samples = readFileSync(heapFile, "utf8").trim().split("\n").filter(Boolean).map(Number);
    return { peakMb: Math.max(...samples) / 1e6, samples: samples.length };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
