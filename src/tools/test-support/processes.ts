import { readFileSync } from "node:fs";

/** Whether `pid` still runs; a zombie (ended, not yet reaped by an init that may never reap it) counts as gone. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Ends whatever a failing test left running, each by its own pid (never by name). */
export function killLeftovers(pids: number[]): void {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone, as it should be
    }
  }
}
