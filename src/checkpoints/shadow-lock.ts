import { mkdir, open, readFile, rm, stat } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * One checkpoint operation at a time on a shadow repository, across processes. Two cairn
 * processes in one workspace (two tasks, a task and `cairn restore`, a subagent's tracker
 * beside its parent's) share one shadow repository; each tracker queues its own git work,
 * but without this their direct commits raced for HEAD and one task's checkpoints were
 * turned off. The lock is a file made with O_EXCL (`cairn.lock` in the git dir) naming its
 * holder; it is held for one operation (milliseconds, at most a snapshot's time bound).
 *
 * A lock left by a process that died is taken over: on this host when its process is gone,
 * from another host (a shared data folder) when it is older than `staleMs`. Two waiters that
 * judge the same dead lock at once may both go on; git's own index and ref locks remain
 * behind this one, so the worst then is today's failed checkpoint, never a wrong one.
 */
export const shadowLockName = "cairn.lock";

const pollMs = 20;
const staleMs = 120_000;

export class ShadowBusyError extends Error {}

export interface ShadowLockOptions {
  signal?: AbortSignal;
  /** How long to wait for another process's operation (default 60 s). */
  waitMs?: number;
}

/** Runs `work` holding the shadow repository's lock (`lockPath`: `<gitDir>/cairn.lock`). */
export async function withShadowLock<T>(lockPath: string, work: () => Promise<T>, options: ShadowLockOptions = {}): Promise<T> {
  const token = `${process.pid} ${hostname()} ${Date.now()} ${Math.random().toString(36).slice(2)}\n`;
  await acquire(lockPath, token, options);
  try {
    return await work();
  } finally {
    // Only our own lock is removed (one taken over as stale meanwhile is the other process's).
    if ((await readFile(lockPath, "utf8").catch(() => undefined)) === token) await rm(lockPath, { force: true });
  }
}

async function acquire(lockPath: string, token: string, options: ShadowLockOptions): Promise<void> {
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  for (let attempt = 0; ; attempt += 1) {
    options.signal?.throwIfAborted();
    try {
      const handle = await open(lockPath, "wx");
      try {
        await handle.writeFile(token);
      } finally {
        await handle.close();
      }
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        await mkdir(dirname(lockPath), { recursive: true });
        continue;
      }
      if (code !== "EEXIST") throw error;
    }
    const holder = await readFile(lockPath, "utf8").catch(() => undefined);
    if (holder === undefined) continue; // released meanwhile
    if (await isStale(lockPath, holder)) {
      await rm(lockPath, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      const pid = holder.split(" ")[0] ?? "?";
      throw new ShadowBusyError(`another cairn process (pid ${pid}) has been using the checkpoints of this workspace for too long; ` + `try again when it has finished, or remove ${lockPath} if no cairn is running`);
    }
    await sleep(Math.min(pollMs * (attempt + 1), 200), undefined, options.signal === undefined ? {} : { signal: options.signal });
  }
}

/** The holder's process is gone (same host), or the lock is older than any operation (another host). */
async function isStale(lockPath: string, holder: string): Promise<boolean> {
  const [pidText, host] = holder.split(" ");
  const pid = Number(pidText);
  if (host === hostname() && Number.isInteger(pid) && pid > 0) return !alive(pid);
  // Written but not yet filled in (a holder between its create and write), or another host's: by age.
  const written = await stat(lockPath).catch(() => undefined);
  return written !== undefined && Date.now() - written.mtimeMs > staleMs;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
