import { link, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { createHash, randomBytes } from "node:crypto";

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

/** A new record of this process, with a token of its own so that no two lock files read alike. */
function ownRecordText(): string {
  const record: LockRecord & { token: string } = { pid: process.pid, startTime: processStartTime(process.pid), host: hostname(), token: randomBytes(8).toString("hex") };
  return JSON.stringify(record);
}

/** A file holding `text`, under a name of its own next to `path`, for linking or renaming into place. */
async function writeCandidate(path: string, text: string): Promise<string> {
  const candidate = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(candidate, text);
  return candidate;
}

async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

/** A live process that holds a lock file. */
export interface LockHolder {
  pid: number;
  host: string;
}

/**
 * Takes the lock file at `path` for this process, or names the live process that holds it.
 * The file is written whole under a temporary name and hard-linked into place, so nobody
 * ever reads a half-written lock. A lock left by a dead process (or a pid since reused) is
 * taken over atomically: see `replaceDeadFile`, so of many processes that find the same
 * stale lock exactly one wins.
 */
export async function takeLockFile(path: string): Promise<HeldLock | { heldBy: LockHolder }> {
  const text = ownRecordText();
  const candidate = await writeCandidate(path, text);
  try {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      try {
        await link(candidate, path);
        return { release: () => releaseLock(path, text) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const existingText = await readOrUndefined(path);
      if (existingText === undefined) continue; // released between our link and our read: try again
      const existing = parseRecord(existingText);
      if (existing !== undefined && holderIsRunning(existing)) return { heldBy: { pid: existing.pid, host: existing.host } };
      // A stale or unreadable lock: the holder is gone.
      if (await replaceDeadFile({ path, deadText: existingText, replacement: candidate })) {
        return { release: () => releaseLock(path, text) };
      }
      // Another process is taking it over right now: look again in a moment.
      await new Promise((resolve) => setTimeout(resolve, 1 + Math.floor(Math.random() * 5)));
    }
    throw new Error(`could not take the lock ${path}; try again`);
  } finally {
    await unlink(candidate).catch(() => {});
  }
}

/** `takeLockFile` for a task's log: refused (TaskLockedError) while a live process holds it. */
export async function acquireTaskLock(options: { path: string; taskId: string }): Promise<HeldLock> {
  const taken = await takeLockFile(options.path);
  if ("release" in taken) return taken;
  const { pid, host } = taken.heldBy;
  throw new TaskLockedError(options.taskId, pid, host === hostname() ? {} : { otherHost: host, lockPath: options.path });
}

/**
 * Replaces the file at `path`, whose holder is dead and whose text was `deadText`, by
 * renaming `replacement` over it; true when done. Removing a stale lock and linking a new
 * one is two steps, and a second process that read the same stale lock could remove the
 * new one between them. So the right to replace one dead file is itself a file named
 * after that file's text, made with link (exclusive): one process gets it, checks under
 * it that the file is still the dead one, and renames over it (one atomic step). A claim
 * left by a process that died while holding it is dead in turn and replaced the same way.
 */
async function replaceDeadFile(options: { path: string; deadText: string; replacement: string }): Promise<boolean> {
  const claim = `${options.path}.claim-${createHash("sha256").update(options.deadText).digest("hex").slice(0, 16)}`;
  const claimText = ownRecordText();
  const claimCandidate = await writeCandidate(claim, claimText);
  try {
    if (!(await takeClaim(claim, claimCandidate))) return false;
    try {
      if ((await readOrUndefined(options.path)) !== options.deadText) return false; // someone replaced it first
      await rename(options.replacement, options.path);
      return true;
    } finally {
      await releaseLock(claim, claimText);
    }
  } finally {
    await unlink(claimCandidate).catch(() => {});
  }
}

async function takeClaim(claim: string, candidate: string): Promise<boolean> {
  try {
    await link(candidate, claim);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const existingText = await readOrUndefined(claim);
  if (existingText === undefined) return false; // released just now: the caller looks again
  const existing = parseRecord(existingText);
  if (existing !== undefined && holderIsRunning(existing)) return false;
  return replaceDeadFile({ path: claim, deadText: existingText, replacement: candidate });
}

/**
 * Removes the lock only if it is still ours, never one that another process took over
 * (after deciding, wrongly, that we were gone). Nobody replaces a live holder's file, so
 * reading it as ours and then removing it cannot remove someone else's.
 */
async function releaseLock(path: string, ownText: string): Promise<void> {
  if ((await readOrUndefined(path)) === ownText) await unlink(path).catch(() => {});
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
