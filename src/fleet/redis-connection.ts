/**
 * Redis clients for the fleet. ioredis and BullMQ are loaded here, and only
 * when a fleet command runs: the rest of cairn never needs Redis.
 */
import type { Redis as RedisClient } from "ioredis";

export type { RedisClient };

export class FleetConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FleetConfigError";
  }
}

/** `--redis URL`, else `CAIRN_REDIS_URL`, else the fleet settings, else none (an error naming all three). */
export function resolveRedisUrl(options: { flag?: string | undefined; env: NodeJS.ProcessEnv; settings?: string | undefined }): string {
  const url = options.flag ?? nonEmpty(options.env["CAIRN_REDIS_URL"]) ?? options.settings;
  if (url === undefined) {
    throw new FleetConfigError('no Redis to use: pass --redis redis://HOST:PORT, set CAIRN_REDIS_URL, or put "redisUrl" in fleet.json (see docs/fleet.md)');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FleetConfigError(`the Redis URL "${redactUrl(url)}" is not a URL; use redis://HOST:PORT (or rediss:// for TLS)`);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new FleetConfigError(`the Redis URL "${redactUrl(url)}" must start with redis:// or rediss://`);
  }
  return url;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** A Redis URL with its password hidden, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*):([^@/]*)@/, "//$1:***@");
}

/** Errors that say no Redis is there (nothing listens, no such host), as opposed to a slow network. */
const nothingThere: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_NONAME", "EHOSTUNREACH"]);

export interface ConnectOptions {
  /** How long to wait for Redis to be ready at all (default 10 s). */
  readyWithinMs?: number;
  /**
   * How long to go on trying while every attempt is refused (default 1 s: a one-shot command says at
   * once that nothing listens). A long-running worker or server passes its whole `readyWithinMs`, so it
   * may start beside a Redis that is still starting.
   */
  refusedWithinMs?: number;
}

/**
 * A client BullMQ accepts: under ESM it needs a constructed client, and
 * `maxRetriesPerRequest: null` so blocking commands survive a Redis restart
 * (commands wait for the reconnection instead of failing).
 */
export async function connectRedis(url: string, options: ConnectOptions = {}): Promise<RedisClient> {
  const { Redis } = await import("ioredis");
  const client = new Redis(url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy: (times) => Math.min(200 * times, 2000),
  });
  const readyWithinMs = options.readyWithinMs ?? 10_000;
  const refusedWithinMs = Math.min(options.refusedWithinMs ?? 1_000, readyWithinMs);
  const startedAt = Date.now();
  let lastError: Error | undefined;
  // Once connected, a lost connection is waited out; but a Redis that is not there at all is said at once.
  const ready = await new Promise<"ready" | "timeout" | "refused">((resolve) => {
    const timer = setTimeout(() => resolve("timeout"), readyWithinMs);
    // Without a listener, a lost connection would be an unhandled 'error' event; ioredis reconnects by itself.
    client.on("error", (error: NodeJS.ErrnoException) => {
      lastError = error;
      if (nothingThere.has(error.code ?? "") && Date.now() - startedAt >= refusedWithinMs) {
        clearTimeout(timer);
        resolve("refused");
      }
    });
    client.once("ready", () => {
      clearTimeout(timer);
      resolve("ready");
    });
  });
  if (ready !== "ready") {
    client.disconnect();
    const waited = ready === "refused" ? "" : ` within ${Math.round(readyWithinMs / 1000)} s`;
    const hint = ready === "refused" ? "; is redis-server running there? (check the URL, or start it)" : "";
    throw new FleetConfigError(`cannot reach Redis at ${redactUrl(url)}${waited}${lastError ? ` (${lastError.message})` : ""}${hint}`);
  }
  return client;
}
