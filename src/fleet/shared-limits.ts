/**
 * Provider limits shared by the whole fleet, in Redis, keyed by a hash of the
 * provider key (never the key): a 429 with retry-after seen by one worker
 * holds back every worker using that key until it has passed, and a
 * fleet-wide cap bounds the requests in flight per provider.
 */
import { createHash, randomUUID } from "node:crypto";
import { ProviderError } from "../llm/errors.js";
import { withStreamHooks } from "../llm/stream-hooks.js";
import type { Chunk, Provider, ProviderRequest } from "../llm/types.js";
import type { FleetKeys } from "./keys.js";
import type { RedisClient } from "./redis-connection.js";

/** A hash that names a key without revealing it (and differs per provider). */
export function providerKeyHash(provider: string, apiKey: string | undefined): string {
  return createHash("sha256")
    .update(`cairn-fleet\0${provider}\0${apiKey ?? ""}`)
    .digest("hex")
    .slice(0, 24);
}

/** Extends the block only if the new one ends later (a shorter retry-after never shortens it). */
const blockScript = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 1`;

/** A lease in a sorted set scored by its expiry in Redis time: dead workers' leases lapse by themselves. */
const acquireScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`;

const renewScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if redis.call('ZSCORE', KEYS[1], ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return 1`;

export interface SharedLimitsOptions {
  redis: RedisClient;
  keys: FleetKeys;
  keyHash: string;
  /** Requests in flight across the fleet for this key; undefined: no cap. */
  concurrency: number | undefined;
  /** How often a waiting worker looks again (ms). */
  pollMs?: number;
  /** Told once per wait (for the task's messages and the worker's log). */
  onWait?: (reason: string, ms: number) => void;
}

const leaseMs = 60_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new ProviderError({ kind: "aborted", message: "the request was aborted" }));
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ProviderError({ kind: "aborted", message: "the request was aborted" }));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export class SharedLimits {
  constructor(private readonly options: SharedLimitsOptions) {}

  /** Waits while the key is blocked by a 429 anywhere in the fleet. */
  async waitUntilOpen(signal: AbortSignal): Promise<void> {
    const key = this.options.keys.rateLimit(this.options.keyHash);
    let told = false;
    for (;;) {
      const ttl = await this.options.redis.pttl(key);
      if (ttl <= 0) return;
      if (!told) this.options.onWait?.("a provider rate limit seen by the fleet", ttl);
      told = true;
      await sleep(Math.min(ttl, 1000), signal);
    }
  }

  async block(ms: number): Promise<void> {
    await this.options.redis.eval(blockScript, 1, this.options.keys.rateLimit(this.options.keyHash), String(Math.max(1, Math.ceil(ms))));
  }

  /** Takes a slot of the fleet-wide cap; the returned function gives it back. */
  async acquire(signal: AbortSignal): Promise<() => Promise<void>> {
    const cap = this.options.concurrency;
    if (cap === undefined) return async () => {};
    const key = this.options.keys.slots(this.options.keyHash);
    const token = randomUUID();
    let told = false;
    for (;;) {
      const got = await this.options.redis.eval(acquireScript, 1, key, String(cap), String(leaseMs), token);
      if (got === 1) break;
      if (!told) this.options.onWait?.(`the fleet-wide cap of ${cap} requests in flight`, this.options.pollMs ?? 200);
      told = true;
      await sleep(this.options.pollMs ?? 200, signal);
    }
    const renew = setInterval(() => {
      this.options.redis.eval(renewScript, 1, key, String(leaseMs), token).catch(() => {});
    }, leaseMs / 3);
    renew.unref();
    return async () => {
      clearInterval(renew);
      await this.options.redis.zrem(key, token).catch(() => 0);
    };
  }
}

export interface Spending {
  turns: number;
  tokens: number;
  cost: number;
}

/**
 * The provider as the fleet runs it: fleet limits before each request, budgets
 * checked before each request (a spent budget ends the task as failed, saying
 * which), and a 429's retry-after shared with the fleet.
 */
export function limitedProvider(options: {
  provider: Provider;
  limits: SharedLimits | undefined;
  budgets: { maxTurns?: number | undefined; maxTokens?: number | undefined; maxCostUsd?: number | undefined };
  spending: Spending;
}): Provider {
  const { provider, limits, budgets, spending } = options;
  return {
    name: provider.name,
    model: provider.model,
    createMessage(request: ProviderRequest): AsyncIterable<Chunk> {
      let release: (() => Promise<void>) | undefined;
      return withStreamHooks(() => provider.createMessage(request), {
        start: async () => {
          const exceeded = budgetExceeded(budgets, spending);
          if (exceeded !== undefined) {
            throw new ProviderError({ kind: "bad_request", message: `budget spent: ${exceeded}`, retryable: false });
          }
          if (limits) {
            await limits.waitUntilOpen(request.signal);
            release = await limits.acquire(request.signal);
          }
          spending.turns += 1;
        },
        chunk: (chunk) => {
          if (chunk.type === "usage") {
            spending.tokens += chunk.inputTokens + chunk.outputTokens + (chunk.cacheReadTokens ?? 0) + (chunk.cacheWriteTokens ?? 0);
            spending.cost += chunk.cost ?? 0;
          }
        },
        error: async (error) => {
          if (limits && error instanceof ProviderError && error.kind === "rate_limit") {
            await limits.block(error.retryAfterMs ?? 1000).catch(() => {});
          }
        },
        end: async () => {
          await release?.();
        },
      });
    },
  };
}

function budgetExceeded(budgets: { maxTurns?: number | undefined; maxTokens?: number | undefined; maxCostUsd?: number | undefined }, spending: Spending): string | undefined {
  if (budgets.maxTurns !== undefined && spending.turns >= budgets.maxTurns) return `${spending.turns} of ${budgets.maxTurns} turns (budgets.maxTurns)`;
  if (budgets.maxTokens !== undefined && spending.tokens >= budgets.maxTokens) return `${spending.tokens} of ${budgets.maxTokens} tokens (budgets.maxTokens)`;
  if (budgets.maxCostUsd !== undefined && spending.cost >= budgets.maxCostUsd) return `$${spending.cost.toFixed(4)} of $${budgets.maxCostUsd} (budgets.maxCostUsd)`;
  return undefined;
}
