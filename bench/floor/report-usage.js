// Preloaded into every process the stream benchmark measures (`node --import
// report-usage.js ...`), floor and cairn alike, so both are measured the same way.
// At exit it writes to $BENCH_USAGE_FILE what the process used: CPU time of its
// own threads, CPU time of the children it waited for (git, shells), and its
// peak resident set. Node has no getrusage(RUSAGE_CHILDREN), so children's CPU
// comes from /proc/self/stat (cutime, cstime; 100 ticks a second).
// With $BENCH_HEAP_FILE set (and --expose-gc), each SIGUSR2 collects garbage and
// appends the live heap in bytes as one line (the benchmark sends one per turn),
// and so does a timer every $BENCH_HEAP_EVERY_MS milliseconds when that is set.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";

const usageFile = process.env.BENCH_USAGE_FILE;
const heapFile = process.env.BENCH_HEAP_FILE;

if (usageFile) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    let childrenMs = 0;
    try {
      const stat = readFileSync("/proc/self/stat", "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // cutime and cstime are fields 16 and 17 of stat, 13 and 14 after the command name.
      childrenMs = (Number(fields[13]) + Number(fields[14])) * 10;
    } catch {
      childrenMs = Number.NaN;
    }
    const selfMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
    writeFileSync(usageFile, JSON.stringify({ selfMs, childrenMs, maxRssKb: usage.maxRSS }));
  });
}

if (heapFile && typeof globalThis.gc === "function") {
  const collect = globalThis.gc;
  const record = () => {
    collect();
    appendFileSync(heapFile, `${process.memoryUsage().heapUsed}\n`);
  };
  process.on("SIGUSR2", record);
  // The file's existence tells the benchmark the handler is in place: before it, SIGUSR2 would end the process.
  writeFileSync(heapFile, "");
  // A timer instead of signals where the benchmark cannot tell when the process ends (a signal that
  // arrives while node shuts down, its handler gone, would end it); unref'd, so it keeps nothing alive.
  const every = Number(process.env.BENCH_HEAP_EVERY_MS ?? 0);
  if (every > 0) setInterval(record, every).unref();
}
