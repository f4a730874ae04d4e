/**
 * One provider rate limit for a task and its subagents (issue #17): a 429
 * seen by any of them holds back every request of the others until its
 * retry-after has passed, instead of each child hammering the API on its own.
 */
import { ProviderError } from "../llm/errors.js";
import { sleep } from "../llm/retry.js";
import { withStreamHooks } from "../llm/stream-hooks.js";
import type { Provider } from "../llm/types.js";

/** Without a retry-after, a 429 holds the others back this long. */
const defaultHoldMs = 2000;

export class SharedRateLimit {
  private blockedUntil = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** How long new requests still wait (ms). */
  remainingMs(): number {
    return Math.max(0, this.blockedUntil - this.now());
  }

  wrap(provider: Provider): Provider {
    return {
      name: provider.name,
      model: provider.model,
      ...(provider.baseUrl === undefined ? {} : { baseUrl: provider.baseUrl }),
      createMessage: (request) =>
        withStreamHooks(() => provider.createMessage(request), {
          start: async () => {
            const wait = this.remainingMs();
            if (wait > 0) await sleep(wait, request.signal);
          },
          error: (error) => {
            if (error instanceof ProviderError && error.kind === "rate_limit") {
              this.blockedUntil = Math.max(this.blockedUntil, this.now() + (error.retryAfterMs ?? defaultHoldMs));
            }
          },
        }),
    };
  }
}
