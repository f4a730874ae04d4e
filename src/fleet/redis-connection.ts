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

/**
 * A client BullMQ accepts: under ESM it needs a constructed client, and
 * `maxRetriesPerRequest: null` so blocking commands survive a Redis restart
 * (commands wait for the reconnection instead of failing).
 */
export async function connectRedis(url: string, options: { readyWithinMs?: number } = {}): Promise<RedisClient> {
  const { Redis } = await import("ioredis");
  const client = new Redis(url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy: (times) => Math.min(200 * times, 2000),
  });
  let lastError: Error | undefined;
  // Without a listener, a lost connection would be an unhandled 'error' event; ioredis reconnects by itself.
  client.on("error", (error: Error) => {
    lastError = error;
  });
  // Once connected, a lost connection is waited out; but a Redis that is not there at all is said at once.
  const readyWithinMs = options.readyWithinMs ?? 10_000;
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), readyWithinMs);
    client.once("ready", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!ready) {
    client.disconnect();
    throw new FleetConfigError(`cannot reach Redis at ${redactUrl(url)} within ${Math.round(readyWithinMs / 1000)} s${lastError ? ` (${lastError.message})` : ""}`);
  }
  return client;
}
