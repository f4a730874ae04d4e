import { ProviderError } from "./errors.js";

export interface StallTimeouts {
  /** Longest wait for the first item, including the wait for response headers. Default 60 s. */
  firstChunkMs: number;
  /** Longest silence between two items. Default 30 s. */
  betweenChunksMs: number;
}

export const defaultStallTimeouts: StallTimeouts = { firstChunkMs: 60_000, betweenChunksMs: 30_000 };

export interface StallOptions extends Partial<StallTimeouts> {
  /** Called once when the stream stalls, before the error is thrown: abort the HTTP request here. */
  onStall?: () => void;
  /** Used in the error message. */
  providerName?: string;
}

/**
 * Yields what `source` yields, but fails with a `stalled` ProviderError when it stays silent too long.
 * Only time spent waiting on the source counts, not time the consumer spends between items.
 *
 * Each wait has its own promise and its own rejector, which the timer uses to fail that wait only.
 * (Racing every item against one stream-long promise that never settles left one reaction per race
 * on it, and each reaction kept its item reachable until the stream ended: issue 18.) At most one
 * timer is armed at a time, re-armed lazily from the start of the current wait, rather than a
 * setTimeout/clearTimeout pair per item, because a long answer has tens of thousands of items.
 * The pending `next()` of the source cannot be cancelled from here, so `onStall` must abort the
 * underlying request; its late answer is then ignored.
 */
export async function* withStallTimeout<T>(source: AsyncIterable<T>, options: StallOptions = {}): AsyncGenerator<T> {
  const firstChunkMs = options.firstChunkMs ?? defaultStallTimeouts.firstChunkMs;
  const betweenChunksMs = options.betweenChunksMs ?? defaultStallTimeouts.betweenChunksMs;
  const iterator = source[Symbol.asyncIterator]();
  let received = 0;
  let finished = false;
  let waitingSince: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** Fails the wait in progress; undefined between waits. */
  let rejectWait: ((error: ProviderError) => void) | undefined;
  const limit = (): number => (received === 0 ? firstChunkMs : betweenChunksMs);
  const check = (): void => {
    timer = undefined;
    if (waitingSince === undefined || rejectWait === undefined) return;
    const elapsed = performance.now() - waitingSince;
    if (elapsed < limit()) {
      timer = setTimeout(check, limit() - elapsed);
      return;
    }
    const phase = received === 0 ? "before the first chunk" : `after ${received} chunks`;
    rejectWait(
      new ProviderError({
        kind: "stalled",
        message: `${options.providerName ?? "provider"} stream stalled: nothing received for ${limit()} ms ${phase}`,
      }),
    );
  };
  try {
    while (true) {
      waitingSince = performance.now();
      timer ??= setTimeout(check, limit());
      const pending = iterator.next();
      let outcome: IteratorResult<T>;
      try {
        outcome = await new Promise<IteratorResult<T>>((resolve, reject) => {
          rejectWait = reject;
          pending.then(resolve, reject);
        });
      } catch (error) {
        if (error instanceof ProviderError && error.kind === "stalled") {
          // The source is stuck inside next(); its late answer settles a wait nobody awaits any more.
          finished = true;
          options.onStall?.();
        }
        throw error;
      } finally {
        rejectWait = undefined;
      }
      waitingSince = undefined;
      if (outcome.done === true) {
        finished = true;
        return;
      }
      received += 1;
      yield outcome.value;
    }
  } finally {
    clearTimeout(timer);
    if (!finished) await iterator.return?.();
  }
}
