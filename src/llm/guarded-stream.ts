import { ProviderError, toProviderError } from "./errors.js";
import type { ErrorContext } from "./errors.js";
import { withStallTimeout } from "./stall.js";
import type { StallTimeouts } from "./stall.js";
import type { Chunk } from "./types.js";

/** What the official SDKs return from a streaming call: events plus the controller that closes the socket. */
export interface SdkStream<T> extends AsyncIterable<T> {
  controller: AbortController;
}

export interface GuardedStreamOptions<T> {
  signal: AbortSignal;
  stall?: Partial<StallTimeouts>;
  context: ErrorContext;
  /** Starts the SDK call; it must pass `signal` on so aborting it closes the HTTP request. */
  open: (signal: AbortSignal) => Promise<SdkStream<T>>;
  /** SDK events to chunks; throws when the stream ends before the answer is complete. */
  translate: (events: AsyncIterable<T>) => AsyncGenerator<Chunk>;
}

function abortedError(context: ErrorContext): ProviderError {
  return new ProviderError({ kind: "aborted", message: `${context.providerName} request aborted` });
}

/**
 * The common shell of every HTTP provider: stall detection, abort that closes the socket at once
 * (the SDK is given our signal and its own stream controller is aborted too; the SDK would otherwise
 * end an aborted stream quietly), and every failure turned into a ProviderError.
 */
export async function* guardedStream<T>(options: GuardedStreamOptions<T>): AsyncGenerator<Chunk> {
  const { signal, context } = options;
  if (signal.aborted) throw abortedError(context);
  const controller = new AbortController();
  let sdkStream: SdkStream<T> | undefined;
  const abortAll = (): void => {
    controller.abort();
    sdkStream?.controller.abort();
  };
  signal.addEventListener("abort", abortAll, { once: true });
  async function* events(): AsyncGenerator<T> {
    sdkStream = await options.open(controller.signal);
    yield* sdkStream;
  }
  const guarded = withStallTimeout(events(), { ...options.stall, providerName: context.providerName, onStall: abortAll });
  let completed = false;
  try {
    for await (const chunk of options.translate(guarded)) {
      if (signal.aborted) throw abortedError(context);
      yield chunk;
    }
    if (signal.aborted) throw abortedError(context);
    completed = true;
  } catch (error) {
    if (signal.aborted) throw abortedError(context);
    throw toProviderError(error, context);
  } finally {
    signal.removeEventListener("abort", abortAll);
    if (!completed) abortAll();
  }
}

/** Thrown by translators when the server closed the stream before its final event. */
export function endedEarly(context: ErrorContext, missing: string): ProviderError {
  return new ProviderError({
    kind: "network",
    message: `${context.providerName} network error: the stream ended before ${missing}`,
  });
}
