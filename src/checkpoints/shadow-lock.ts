import { mkdir } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { takeLockFile } from "../store/lock.js";

/**
 * One checkpoint operation at a time on a shadow repository, across processes. Two cairn
 * processes in one workspace (two tasks, a task and `cairn restore`, a subagent's tracker
 * beside its parent's) share one shadow repository; each tracker queues its own git work,
 * but without this, two tasks started at once raced in `git init` (one task's checkpoints
 * were turned off) and their direct commits raced for HEAD. The lock is `cairn.lock` in the
 * git dir, held for one operation (milliseconds, at most a snapshot's time bound), taken
 * as a task's log lock is (store/lock.ts): a lock whose process died is taken over.
 */
export const shadowLockName = "cairn.lock";

export interface ShadowLockOptions {
  signal?: AbortSignal;
  /** How long to wait for another process's operation (default 60 s). */
  waitMs?: number;
}

/** Runs `work` holding the shadow repository's lock (`lockPath`: `<gitDir>/cairn.lock`), waiting for another holder. */
export async function withShadowLock<T>(lockPath: string, work: () => Promise<T>, options: ShadowLockOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  for (let attempt = 0; ; attempt += 1) {
    options.signal?.throwIfAborted();
    const taken = await takeLockFile(lockPath).catch(async (error: unknown) => {
      // A new shadow repository's first operation makes its git dir.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await mkdir(dirname(lockPath), { recursive: true });
      return takeLockFile(lockPath);
    });
    if ("release" in taken) {
      try {
        return await work();
      } finally {
        await taken.release();
      }
    }
    if (Date.now() >= deadline) {
      const { pid, host } = taken.heldBy;
      const where = host === hostname() ? `pid ${pid}` : `pid ${pid} on host ${host}`;
      throw new Error(`another cairn process (${where}) has been using the checkpoints of this workspace for too long; try again when it has finished, or remove ${lockPath} if it is no longer running`);
    }
    await sleep(Math.min(10 * (attempt + 1), 200), undefined, options.signal === undefined ? {} : { signal: options.signal });
  }
}
