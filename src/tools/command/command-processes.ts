/**
 * Finding and ending every process a command started (#11 item 3).
 *
 * A command runs in its own process group, so `kill(-pgid)` reaches its
 * children, including `sleep 300 &` and `npm run dev &`. A process that left
 * the group (`setsid`, a daemon's double fork) is out of that reach; it still
 * carries the environment it inherited, so every command gets a random token
 * in its environment and /proc is searched for processes that hold it. A
 * process that rewrote its environment, or a system without /proc, is beyond
 * what cairn can see.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { readFile, readdir } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";

/** The environment variable that marks a command's processes. */
export const commandTokenVariable = "CAIRN_COMMAND_TOKEN";

export function newCommandToken(): string {
  return randomBytes(12).toString("hex");
}

/** Processes (other than cairn itself) whose environment carries `token`. */
export async function processesWithToken(token: string): Promise<number[]> {
  let entries: string[];
  try {
    entries = await readdir("/proc");
  } catch {
    return [];
  }
  const marker = `${commandTokenVariable}=${token}`;
  const found: number[] = [];
  await Promise.all(
    entries.map(async (entry) => {
      if (!/^\d+$/.test(entry)) return;
      const pid = Number(entry);
      if (pid === process.pid) return;
      const environment = await readFile(`/proc/${entry}/environ`, "latin1").catch(() => "");
      if (environment.split("\0").includes(marker)) found.push(pid);
    }),
  );
  return found;
}

/** The same search, synchronously: for cairn's exit, when nothing asynchronous runs any more. */
export function processesWithTokenSync(token: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const marker = `${commandTokenVariable}=${token}`;
  return entries
    .filter((entry) => {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) return false;
      try {
        return readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Sends `name` (0: only checks that the target exists); false when there is no such process. */
function signal(target: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(target, name);
    return true;
  } catch {
    return false;
  }
}

const killGraceMs = 500;

/**
 * Ends the command's process group and every process carrying its token:
 * SIGTERM, then SIGKILL to what is left after a short grace.
 */
export async function endCommandProcesses(options: { processGroup: number | undefined; token: string }): Promise<void> {
  const { processGroup, token } = options;
  const strays = await processesWithToken(token);
  const groupAlive = processGroup !== undefined && signal(-processGroup, "SIGTERM");
  const living = strays.filter((pid) => signal(pid, "SIGTERM"));
  const anyAlive = (): boolean => (processGroup !== undefined && signal(-processGroup, 0)) || living.some((pid) => signal(pid, 0));
  if (groupAlive || living.length > 0) {
    for (let waited = 0; waited < killGraceMs && anyAlive(); waited += 50) await delay(50);
  }
  if (processGroup !== undefined) signal(-processGroup, "SIGKILL");
  // Look again, always: a process caught between fork and setsid may have been in
  // neither the group nor readable in /proc at the first look.
  for (const pid of new Set([...living, ...(await processesWithToken(token))])) signal(pid, "SIGKILL");
}
