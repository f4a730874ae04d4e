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
 * The pending `next()` of the source cannot be cancelled from here, so `onStall` must abort the
 * underlying request; the late answer of that `next()` is then ignored.
 */
export async function* withStallTimeout<T>(source: AsyncIterable<T>, options: StallOptions = {}): AsyncGenerator<T> {
  const firstChunkMs = options.firstChunkMs ?? defaultStallTimeouts.firstChunkMs;
  const betweenChunksMs = options.betweenChunksMs ?? defaultStallTimeouts.betweenChunksMs;
  const iterator = source[Symbol.asyncIterator]();
  let received = 0;
  let finished = false;
  try {
    while (true) {
      const limit = received === 0 ? firstChunkMs : betweenChunksMs;
      let timer: NodeJS.Timeout | undefined;
      const pending = iterator.next();
      const timeout = new Promise<"stalled">((resolve) => {
        timer = setTimeout(() => resolve("stalled"), limit);
      });
      let outcome: IteratorResult<T> | "stalled";
      try {
        outcome = await Promise.race([pending, timeout]);
      } finally {
        clearTimeout(timer);
      }
      if (outcome === "stalled") {
        // The source is stuck inside next(); swallow whatever it eventually settles with.
        pending.then(
          () => undefined,
          () => undefined,
        );
        finished = true;
        options.onStall?.();
        const phase = received === 0 ? "before the first chunk" : `after ${received} chunks`;
        throw new ProviderError({
          kind: "stalled",
          message: `${options.providerName ?? "provider"} stream stalled: nothing received for ${limit} ms ${phase}`,
        });
      }
      if (outcome.done === true) {
        finished = true;
        return;
      }
      received += 1;
      yield outcome.value;
    }
  } finally {
    if (!finished) await iterator.return?.();
  }
}
