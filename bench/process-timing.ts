/** Wall and CPU time of whole processes, for the benches that time `bin/cairn` from outside. */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

export interface Sample {
  wall: number;
  /** CPU time (user + system) the process had used when it was measured, in 10 ms ticks; NaN when unknown. */
  cpu: number;
}

/** CPU time of a running or exited-but-unreaped process, in ms. */
export function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Runs `node args` to its end; CPU time is read once stdout closes, before the process is reaped. */
export function timeProcess(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], cwd: options.cwd, env: options.env });
    child.on("error", reject);
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    child.stdout.on("close", () => {
      const wall = performance.now() - start;
      const cpu = cpuOf(child.pid!);
      child.on("exit", (code) => (code === 0 ? resolve({ wall, cpu }) : reject(new Error(`${args.join(" ")} exited with ${code}: ${stderr}`))));
      if (child.exitCode !== null) {
        if (child.exitCode === 0) resolve({ wall, cpu });
        else reject(new Error(`${args.join(" ")} exited with ${child.exitCode}: ${stderr}`));
      }
    });
  });
}

/** Starts `command` and resolves with the time until `until()` is true (checked on every turn of the event loop). */
export async function timeUntil(start: () => ChildProcess, until: () => boolean): Promise<Sample & { child: ChildProcess }> {
  const begin = performance.now();
  const child = start();
  while (!until()) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the process ended (${child.exitCode ?? child.signalCode}) before it got there`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { wall: performance.now() - begin, cpu: cpuOf(child.pid!), child };
}

export function median(values: number[]): number {
  const known = values.filter((value) => !Number.isNaN(value)).sort((left, right) => left - right);
  return known[Math.floor(known.length / 2)] ?? Number.NaN;
}

export function mean(values: number[]): number {
  const known = values.filter((value) => !Number.isNaN(value));
  return known.reduce((sum, value) => sum + value, 0) / known.length;
}

/** `bin/cairn mock-llm` (or another cairn's, `bin`) serving `scenarioFile` over HTTP on loopback, until `stop`. */
export async function startMockLlm(scenarioFile: string, bin: string): Promise<{ url: string; stop: () => void }> {
  const child: ChildProcess = spawn(process.execPath, [bin, "mock-llm", "--scenario", scenarioFile], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (data: string) => {
      const match = /listening on (\S+)/.exec(data);
      if (match?.[1]) resolve(match[1]);
    });
    child.on("exit", () => reject(new Error("mock-llm exited")));
  });
  return { url, stop: () => child.kill() };
}
