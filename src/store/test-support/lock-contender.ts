/**
 * A process that races for task locks, for the lock's takeover test: for each line
 * `<lock path>` on stdin it tries to take that lock and prints `held <path>`,
 * `locked <path>` or `failed <path> <message>`. Locks it took are kept until it exits.
 */
import { createInterface } from "node:readline";
import { acquireTaskLock } from "../lock.js";
import type { HeldLock } from "../lock.js";

const held: HeldLock[] = [];
const lines = createInterface({ input: process.stdin });
process.stdout.write("ready\n");
lines.on("line", (path) => {
  acquireTaskLock({ path, taskId: "contended" }).then(
    (lock) => {
      held.push(lock);
      process.stdout.write(`held ${path}\n`);
    },
    (error: unknown) => {
      const locked = error instanceof Error && error.name === "TaskLockedError";
      process.stdout.write(locked ? `locked ${path}\n` : `failed ${path} ${error instanceof Error ? error.message : String(error)}\n`);
    },
  );
});
