import { ProviderError } from "./errors.js";

export interface RetrySchedule {
  /** One delay per automatic retry; its length is the number of retries. */
  delaysMs: number[];
  /** Each delay is scaled by a random factor in [1 - jitter, 1 + jitter]. Default 0.2. */
  jitter?: number;
  /** A `retry-after` longer than this is not waited out automatically; the caller asks the user. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Source of randomness, injectable so tests are deterministic. */
  random?: () => number;
}

export const defaultRetrySchedule: RetrySchedule = { delaysMs: [2000, 4000, 8000] };

/**
 * How long to wait before retry number `attempt` (0 for the first retry), or undefined when the
 * error must go to the caller: it is not retryable (auth, bad_request, context_window, aborted) or
 * the schedule is exhausted. A server's `retry-after` wins when it is longer than our own delay.
 */
export function retryDelay(attempt: number, error: ProviderError, schedule: RetrySchedule = defaultRetrySchedule): number | undefined {
  if (!error.retryable) return undefined;
  const base = schedule.delaysMs[attempt];
  if (base === undefined || attempt < 0) return undefined;
  const jitter = schedule.jitter ?? 0.2;
  const random = schedule.random ?? Math.random;
  const jittered = Math.max(0, Math.round(base * (1 - jitter + 2 * jitter * random())));
  if (error.retryAfterMs === undefined) return jittered;
  if (error.retryAfterMs > (schedule.maxRetryAfterMs ?? 60_000)) return undefined;
  return Math.max(jittered, error.retryAfterMs);
}

/** Waits `ms`; rejects with an `aborted` ProviderError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = (): ProviderError => new ProviderError({ kind: "aborted", message: "aborted while waiting to retry", cause: signal?.reason });
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
