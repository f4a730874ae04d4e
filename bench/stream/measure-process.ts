/**
 * Runs one node program to its end and reports what it used, read inside the
 * process by bench/floor/report-usage.js (so floor and cairn are measured alike
 * and no zombie has to be caught before it is reaped).
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const usagePreload = pathToFileURL(fileURLToPath(new URL("../floor/report-usage.js", import.meta.url))).href;

export interface ProcessUsage {
  wallMs: number;
  /** The process's own CPU time (user + system, all its threads). */
  selfMs: number;
  /** CPU time of the children it waited for (git, shells), in 10 ms ticks. */
  childrenMs: number;
  /** selfMs + childrenMs. */
  cpuMs: number;
  maxRssMb: number;
  stdoutBytes: number;
  /** The last 4,000 characters of stdout. */
  stdoutTail: string;
}

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** node options before the program, e.g. --expose-gc. */
  nodeOptions?: string[];
  /** Called once the process runs (the per-turn sampling of the 200-turn task). */
  onSpawn?: (pid: number) => void;
}

/** CPU time a running process has used, in ms: its own (utime + stime) and its waited-for children's; NaN once it is gone. */
export function procCpu(pid: number): { selfMs: number; childrenMs: number } {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return { selfMs: Number.NaN, childrenMs: Number.NaN };
  }
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime, stime, cutime, cstime: fields 14-17 of stat, 11-14 after the command name; 100 ticks a second.
  return { selfMs: (Number(fields[11]) + Number(fields[12])) * 10, childrenMs: (Number(fields[13]) + Number(fields[14])) * 10 };
}

/**
 * A running process's own CPU time in ms, to the nanosecond: the sum of its threads'
 * time on a CPU (/proc/<pid>/task/<tid>/schedstat). Node's threads live as long
 * as the process, so none is lost; NaN once the process is gone.
 */
export function procThreadsCpuMs(pid: number): number {
  try {
    let nanoseconds = 0;
    for (const thread of readdirSync(`/proc/${pid}/task`)) {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, "utf8").split(" ")[0]);
    }
    return nanoseconds / 1e6;
  } catch {
    return Number.NaN;
  }
}

export async function runMeasured(args: string[], options: RunOptions): Promise<ProcessUsage> {
  const folder = await mkdtemp(join(tmpdir(), "cairn-bench-usage-"));
  const usageFile = join(folder, "usage.json");
  try {
    const start = performance.now();
    const child = spawn(process.execPath, [...(options.nodeOptions ?? []), "--import", usagePreload, ...args], {
      cwd: options.cwd,
      env: { ...options.env, BENCH_USAGE_FILE: usageFile },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdoutBytes = 0;
    let stdoutTail = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => {
      stdoutBytes += data.length;
      stdoutTail = (stdoutTail + data.toString("utf8")).slice(-4000);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (data: string) => (stderr = (stderr + data).slice(-4000)));
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (exitCode) => resolve(exitCode));
    });
    const wallMs = performance.now() - start;
    if (code !== 0) throw new Error(`${args.join(" ")} exited with ${code}:\n${stderr}`);
    const report = await readFile(usageFile, "utf8").catch(() => {
      throw new Error(`${args.join(" ")} ended without reporting its usage (is bench/floor/report-usage.js preloaded?)`);
    });
    const usage = JSON.parse(report) as { selfMs: number; childrenMs: number; maxRssKb: number };
    return { wallMs, selfMs: usage.selfMs, childrenMs: usage.childrenMs, cpuMs: usage.selfMs + usage.childrenMs, maxRssMb: usage.maxRssKb / 1024, stdoutBytes, stdoutTail };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
