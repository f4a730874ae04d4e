import { ProviderError, toProviderError } from "../llm/errors.js";
import { retryDelay, sleep } from "../llm/retry.js";
import type { RetrySchedule } from "../llm/retry.js";
import type { ChunkIterator } from "../llm/chunk-stream.js";
import type { Chunk, Provider, ProviderRequest } from "../llm/types.js";
import { TaskAbortedError } from "./errors.js";

/** An open stream whose first chunk has already arrived without error (SPEC T11). */
export interface OpenedStream {
  first: IteratorResult<Chunk>;
  iterator: ChunkIterator;
}

export type RetryDecision = "retry" | "give_up";

export interface FirstChunkOptions {
  provider: Provider;
  buildRequest: () => Promise<ProviderRequest>;
  schedule: RetrySchedule;
  signal: AbortSignal;
  /** Before each automatic retry: tell the user (`error_retry` with a countdown). */
  onRetry: (details: { attempt: number; delayMs: number; error: ProviderError }) => void;
  /** Automatic retries are spent or the error is not retryable: ask the user. */
  onExhausted: (error: ProviderError) => Promise<RetryDecision>;
  /** The request did not fit the context window: shrink the history; false if nothing can be removed. */
  onContextWindow: () => Promise<boolean>;
  providerName: string;
  apiKeyEnv?: string;
}

/**
 * Opens the stream and waits for its first chunk, retrying failures before or
 * at the first chunk with backoff (SPEC T11). Only a stream that started
 * cleanly is returned; anything else is retried, handed to the user, or thrown.
 */
export async function openStreamWithRetry(options: FirstChunkOptions): Promise<OpenedStream> {
  let attempt = 0;
  let shrunkForContext = false;
  while (true) {
    if (options.signal.aborted) throw new TaskAbortedError();
    const request = await options.buildRequest();
    const iterator = options.provider.createMessage(request)[Symbol.asyncIterator]();
    try {
      const first = await iterator.next();
      return { first, iterator };
    } catch (raw) {
      if (options.signal.aborted) throw new TaskAbortedError();
      const context = { providerName: options.providerName, ...(options.apiKeyEnv ? { apiKeyEnv: options.apiKeyEnv } : {}) };
      const error = raw instanceof ProviderError ? raw : toProviderError(raw, context);
      if (error.kind === "aborted") throw new TaskAbortedError();
      if (error.kind === "context_window" && !shrunkForContext) {
        shrunkForContext = true;
        if (await options.onContextWindow()) continue;
      }
      const delayMs = retryDelay(attempt, error, options.schedule);
      if (delayMs !== undefined) {
        options.onRetry({ attempt: attempt + 1, delayMs, error });
        try {
          await sleep(delayMs, options.signal);
        } catch {
          throw new TaskAbortedError();
        }
        attempt += 1;
        continue;
      }
      if ((await options.onExhausted(error)) === "give_up") throw error;
      attempt = 0;
      shrunkForContext = false;
    }
  }
}
