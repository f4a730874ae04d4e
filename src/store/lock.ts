import { link, readFile, unlink, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";

/** A second cairn process asked for a task that a live process holds. */
export class TaskLockedError extends Error {
  constructor(
    readonly taskId: string,
    readonly pid: number,
    options: { otherHost?: string; lockPath?: string } = {},
  ) {
    super(
      options.otherHost === undefined
        ? `task ${taskId} is open in another cairn process (pid ${pid}); finish or stop that process first (or wait for it to end), then try again`
        : `task ${taskId} is open in another cairn process (pid ${pid} on host ${options.otherHost}); ` +
            `finish or stop it there first; if it is no longer running, delete ${options.lockPath ?? "the task's lock file"} and try again`,
    );
    this.name = "TaskLockedError";
  }
}

interface LockRecord {
  pid: number;
  /** Start time of the process from /proc (clock ticks since boot): tells a reused pid apart. */
  startTime: string | undefined;
  host: string;
}

/** Reads a process's start time on Linux; undefined where /proc is not there. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count from the last ")".
    const afterName = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return afterName[19];
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the process that wrote `record` is still the one running under its pid. */
function holderIsRunning(record: LockRecord): boolean {
  // Another machine (a shared data folder): we cannot tell, so respect it; the error says how to clear it.
  if (record.host !== hostname()) return true;
  if (!isAlive(record.pid)) return false;
  if (record.startTime === undefined) return true;
  const current = processStartTime(record.pid);
  return current === undefined || current === record.startTime;
}

function parseRecord(text: string): LockRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockRecord>;
    if (typeof value.pid !== "number") return undefined;
    return {
      pid: value.pid,
      startTime: typeof value.startTime === "string" ? value.startTime : undefined,
      host: typeof value.host === "string" ? value.host : hostname(),
    };
  } catch {
    return undefined;
  }
}

export interface HeldLock {
  release(): Promise<void>;
}

/**
 * Takes the lock file at `path` for this process. The file is written whole under a
 * temporary name and hard-linked into place, so nobody ever reads a half-written lock;
 * a lock left by a dead process (or a pid since reused) is taken over.
 */
export async function acquireTaskLock(options: { path: string; taskId: string }): Promise<HeldLock> {
  const record: LockRecord = { pid: process.pid, startTime: processStartTime(process.pid), host: hostname() };
  const temporary = `${options.path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(temporary, JSON.stringify(record));
  try {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      try {
        await link(temporary, options.path);
        return { release: () => releaseLock(options.path, record) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      let existingText: string;
      try {
        existingText = await readFile(options.path, "utf8");
      } catch {
        continue; // released between our link and our read: try again
      }
      const existing = parseRecord(existingText);
      if (existing !== undefined && holderIsRunning(existing)) {
        throw new TaskLockedError(
          options.taskId,
          existing.pid,
          existing.host === hostname() ? {} : { otherHost: existing.host, lockPath: options.path },
        );
      }
      // A stale or unreadable lock: the holder is gone. Remove it and race for it again.
      await unlink(options.path).catch(() => {});
    }
    throw new Error(`could not take the lock for task ${options.taskId} (${options.path}); try again`);
  } finally {
    await unlink(temporary).catch(() => {});
  }
}

async function releaseLock(path: string, record: LockRecord): Promise<void> {
  // Only remove the lock if it is still ours (never someone's who took over a stale one).
  try {
    const current = parseRecord(await readFile(path, "utf8"));
    if (current?.pid === record.pid && current.startTime === record.startTime) await unlink(path);
  } catch {
    // Already gone.
  }
}

/** Whether a live process holds the lock at `path` (for listing running tasks). */
export async function isLockHeld(path: string): Promise<boolean> {
  try {
    const record = parseRecord(await readFile(path, "utf8"));
    return record !== undefined && holderIsRunning(record);
  } catch {
    return false;
  }
}
