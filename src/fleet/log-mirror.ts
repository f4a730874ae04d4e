/**
 * The task's log, mirrored to a Redis stream as it is written (append-only,
 * one stream entry per log entry), with the workspace's patch stored at every
 * step boundary. A worker that takes a job over rebuilds the task from both.
 *
 * Redis writes go out in order through one chain; a step's patch and the log
 * entry that starts the next step are written in one atomic script, so Redis
 * never holds a log that is ahead of its patch, and each write is fenced: a
 * worker whose job was taken over can write nothing more.
 */
import type { TaskLog, TaskLogEntry } from "../task/contracts/seams.js";
import type { StoreLogEntry } from "../store/types.js";
import type { FleetKeys } from "./keys.js";
import type { RedisClient } from "./redis-connection.js";

export interface LogMirrorOptions {
  redis: RedisClient;
  keys: FleetKeys;
  jobId: string;
  /** The patch of the workspace now (synchronous: see workspacePatchSync). */
  patchNow: () => string;
  /** Called for every entry, after it is queued (for turn counting and the report). */
  onEntry?: (entry: TaskLogEntry) => void;
  /** A takeover: every user turn from now on follows a step. */
  resumed?: boolean;
  /** How long a write is retried while Redis is unreachable (default 60 s). */
  retryForMs?: number;
  /**
   * This worker's fencing token for the job (`claimMirror`): each write checks it in Redis,
   * in the same atomic step, so a worker that froze and lost the job can append nothing after
   * another worker took it over.
   */
  fence: string;
}

/** The mirror refused a write: another worker took the job over (its fencing token is newer). */
export class MirrorFencedError extends Error {
  constructor(jobId: string) {
    super(`job ${jobId} was taken over by another worker: this worker's log writes are refused`);
    this.name = "MirrorFencedError";
  }
}

/**
 * Takes the job's mirror for this worker and returns its fencing token: from now on the
 * writes of every earlier holder are refused. Call it before reading the mirrored log, so
 * that nothing a stale worker writes can slip in after the read.
 */
export async function claimMirror(redis: RedisClient, keys: FleetKeys, jobId: string): Promise<string> {
  return String(await redis.hincrby(keys.job(jobId), "fence", 1));
}

/**
 * One batch of writes, fenced: applied whole if the job's fencing token is still ours, else
 * refused whole (a Lua script runs atomically, so no takeover can come between check and write).
 * KEYS: job hash, log stream, patch. ARGV: token, then kind/value pairs.
 */
const fencedWrite = `
if redis.call('HGET', KEYS[1], 'fence') ~= ARGV[1] then
  return redis.error_reply('FENCED the job belongs to another worker now')
end
for index = 2, #ARGV, 2 do
  if ARGV[index] == 'patch' then
    redis.call('SET', KEYS[3], ARGV[index + 1])
  else
    redis.call('XADD', KEYS[2], '*', 'entry', ARGV[index + 1])
  end
end
return (#ARGV - 1) / 2
`;

export class LogMirror {
  private chain: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  private lastPatch: string | undefined;
  private userTurns = 0;

  constructor(private readonly options: LogMirrorOptions) {
    this.userTurns = options.resumed === true ? 1 : 0;
  }

  /** Wraps the store's log: every entry goes to disk first, then to Redis. */
  wrap(local: TaskLog): TaskLog {
    return {
      append: (entry) => {
        local.append(entry);
        this.mirror(entry);
        this.options.onEntry?.(entry);
      },
      flush: async () => {
        await local.flush();
        await this.flush();
      },
    };
  }

  private detached = false;

  /** Stops writing to Redis (the job belongs to another worker now); what is queued is dropped. */
  detach(): void {
    this.detached = true;
    this.pending.length = 0;
  }

  /** Queues one entry; a user turn is a step boundary, so the patch goes with it. */
  mirror(entry: StoreLogEntry): void {
    if (this.detached) return;
    let patch: string | undefined;
    // The first user turn (the task) comes before any change: the patch is stored from the second on.
    if (entry.kind === "api" && entry.message.role === "user" && this.userTurns++ > 0) {
      try {
        patch = this.options.patchNow();
      } catch (error) {
        this.failure ??= error instanceof Error ? error : new Error(String(error));
      }
    }
    const changedPatch = patch !== undefined && patch !== this.lastPatch ? patch : undefined;
    if (patch !== undefined) this.lastPatch = patch;
    if (changedPatch !== undefined) this.pending.push({ kind: "patch", patch: changedPatch });
    this.pending.push({ kind: "entry", line: JSON.stringify(entry) });
    this.drain();
  }

  /** Stores the patch now (after the task ended), in order with the log. */
  storePatch(patch: string): void {
    if (this.detached) return;
    this.lastPatch = patch;
    this.pending.push({ kind: "patch", patch });
    this.drain();
  }

  private readonly pending: Array<{ kind: "entry"; line: string } | { kind: "patch"; patch: string }> = [];
  private draining = false;

  /**
   * Writes what is pending, in order, one atomic script per batch: the entries that
   * piled up while the previous batch was on its way go together, and a patch
   * is always in the same transaction as the log entry that follows it. A batch
   * that fails while Redis is away (a restart) is tried again for a while:
   * ioredis reconnects by itself, and nothing may be lost or reordered.
   */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    const { redis, keys, jobId } = this.options;
    this.chain = (async () => {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, this.pending.length);
        const deadline = Date.now() + (this.options.retryForMs ?? 60_000);
        for (let attempt = 0; ; attempt += 1) {
          try {
            const values = batch.flatMap((item) => (item.kind === "patch" ? ["patch", item.patch] : ["entry", item.line]));
            await redis.eval(fencedWrite, 3, keys.job(jobId), keys.log(jobId), keys.patch(jobId), this.options.fence, ...values);
            break;
          } catch (error) {
            if (error instanceof Error && error.message.startsWith("FENCED")) {
              this.detached = true; // the job is another worker's: nothing more of ours goes to Redis
              throw new MirrorFencedError(jobId);
            }
            if (Date.now() > deadline) throw error;
            await new Promise((resolve) => setTimeout(resolve, Math.min(100 * 2 ** attempt, 2000)));
          }
        }
      }
    })()
      .catch((error: unknown) => {
        this.failure ??= error instanceof Error ? error : new Error(String(error));
        this.pending.length = 0;
      })
      .finally(() => {
        this.draining = false;
        // Entries that came between the last batch and here start the next drain.
        if (this.pending.length > 0 && this.failure === undefined) this.drain();
      });
  }

  /** Resolves when everything queued is in Redis; rejects with the first failure. */
  async flush(): Promise<void> {
    while (this.draining) await this.chain;
    if (this.failure) throw this.failure;
  }
}

/** Every entry mirrored so far for a job, oldest first. */
export async function readMirroredLog(redis: RedisClient, keys: FleetKeys, jobId: string): Promise<StoreLogEntry[]> {
  const entries: StoreLogEntry[] = [];
  let start = "-";
  for (;;) {
    const batch = await redis.xrange(keys.log(jobId), start, "+", "COUNT", 1000);
    for (const [id, fields] of batch) {
      const value = fieldValue(fields, "entry");
      if (value !== undefined) entries.push(JSON.parse(value) as StoreLogEntry);
      start = `(${id}`;
    }
    if (batch.length < 1000) return entries;
  }
}

export function fieldValue(fields: string[], name: string): string | undefined {
  for (let index = 0; index + 1 < fields.length; index += 2) {
    if (fields[index] === name) return fields[index + 1];
  }
  return undefined;
}
