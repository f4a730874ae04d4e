import { ProviderError, toProviderError } from "./errors.js";
import type { ErrorContext } from "./errors.js";
import { defaultStallTimeouts } from "./stall.js";
import type { StallTimeouts } from "./stall.js";
import type { Chunk } from "./types.js";

/** What the official SDKs return from a streaming call: events plus the controller that closes the socket. */
export interface SdkStream<T> extends AsyncIterable<T> {
  controller: AbortController;
}

/**
 * Turns one provider's SDK events into chunks, synchronously, one event at a time (issue 18: one
 * iterator with a per-event translator instead of an async generator per stage).
 */
export interface StreamTranslator<T> {
  /** Appends the chunks of one event to `out`; true when the event ends the answer (read no further). */
  push(event: T, out: Chunk[]): boolean;
  /** The events ran out: appends the closing chunks, or throws when the answer is incomplete. */
  end(out: Chunk[]): void;
}

export interface GuardedStreamOptions<T> {
  signal: AbortSignal;
  stall?: Partial<StallTimeouts>;
  context: ErrorContext;
  /** Starts the SDK call; it must pass `signal` on so aborting it closes the HTTP request. */
  open: (signal: AbortSignal) => Promise<SdkStream<T>>;
  /** A fresh translator for this stream. */
  translator: () => StreamTranslator<T>;
}

function abortedError(context: ErrorContext): ProviderError {
  return new ProviderError({ kind: "aborted", message: `${context.providerName} request aborted` });
}

/**
 * The common shell of every HTTP provider: stall detection, abort that closes the socket at once
 * (the SDK is given our signal and its own stream controller is aborted too; the SDK would otherwise
 * end an aborted stream quietly), and every failure turned into a ProviderError.
 */
export function guardedStream<T>(options: GuardedStreamOptions<T>): AsyncIterable<Chunk> {
  return { [Symbol.asyncIterator]: () => new GuardedIterator(options) };
}

/**
 * One iterator over the SDK's events: each `next()` hands out the chunks already translated or
 * pulls the next event and translates it in place. A stall is detected by one lazily re-armed
 * timer that measures only the time spent waiting on the SDK; when it fires, the HTTP request is
 * aborted, which fails the SDK's pending read, and that failure is reported as `stalled`.
 */
class GuardedIterator<T> implements AsyncIterator<Chunk> {
  readonly #options: GuardedStreamOptions<T>;
  readonly #translator: StreamTranslator<T>;
  readonly #controller = new AbortController();
  readonly #queue: Chunk[] = [];
  #head = 0;
  #sdk: SdkStream<T> | undefined;
  #source: AsyncIterator<T> | undefined;
  #started = false;
  /** The answer is complete: what is queued is all there is. */
  #ended = false;
  #closed = false;
  #received = 0;
  #waitingSince: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stalled: ProviderError | undefined;
  readonly #firstChunkMs: number;
  readonly #betweenChunksMs: number;

  constructor(options: GuardedStreamOptions<T>) {
    this.#options = options;
    this.#translator = options.translator();
    this.#firstChunkMs = options.stall?.firstChunkMs ?? defaultStallTimeouts.firstChunkMs;
    this.#betweenChunksMs = options.stall?.betweenChunksMs ?? defaultStallTimeouts.betweenChunksMs;
  }

  readonly #abortAll = (): void => {
    this.#controller.abort();
    this.#sdk?.controller.abort();
  };

  async next(): Promise<IteratorResult<Chunk>> {
    const { signal, context } = this.#options;
    try {
      if (!this.#started) {
        this.#started = true;
        if (signal.aborted) throw abortedError(context);
        signal.addEventListener("abort", this.#abortAll, { once: true });
      }
      for (;;) {
        if (signal.aborted) throw abortedError(context);
        if (this.#head < this.#queue.length) return { value: this.#queue[this.#head++] as Chunk, done: false };
        this.#queue.length = 0;
        this.#head = 0;
        if (this.#ended || this.#closed) {
          await this.#close(true);
          return { value: undefined, done: true };
        }
        await this.#pull();
      }
    } catch (error) {
      await this.#close(false);
      if (signal.aborted) throw abortedError(context);
      if (this.#stalled) throw this.#stalled;
      throw toProviderError(error, context);
    }
  }

  async return(): Promise<IteratorResult<Chunk>> {
    // Leaving early closes the HTTP stream instead of draining it.
    await this.#close(this.#ended && this.#head >= this.#queue.length);
    return { value: undefined, done: true };
  }

  async #pull(): Promise<void> {
    this.#waitingSince = performance.now();
    this.#timer ??= setTimeout(this.#check, this.#limit());
    let result: IteratorResult<T>;
    try {
      if (this.#source === undefined) {
        this.#sdk = await this.#options.open(this.#controller.signal);
        this.#source = this.#sdk[Symbol.asyncIterator]();
      }
      result = await this.#source.next();
    } finally {
      this.#waitingSince = undefined;
    }
    if (this.#stalled) throw this.#stalled;
    if (result.done === true) {
      this.#ended = true;
      this.#translator.end(this.#queue);
      return;
    }
    this.#received += 1;
    if (this.#translator.push(result.value, this.#queue)) this.#ended = true;
  }

  #limit(): number {
    return this.#received === 0 ? this.#firstChunkMs : this.#betweenChunksMs;
  }

  readonly #check = (): void => {
    this.#timer = undefined;
    if (this.#waitingSince === undefined || this.#closed) return; // re-armed by the next wait
    const elapsed = performance.now() - this.#waitingSince;
    if (elapsed < this.#limit()) {
      this.#timer = setTimeout(this.#check, this.#limit() - elapsed);
      return;
    }
    const phase = this.#received === 0 ? "before the first chunk" : `after ${this.#received} chunks`;
    this.#stalled = new ProviderError({
      kind: "stalled",
      message: `${this.#options.context.providerName} stream stalled: nothing received for ${this.#limit()} ms ${phase}`,
    });
    this.#abortAll();
  };

  /** Once: stops the timer and the abort wiring; a stream left before its end is aborted. */
  async #close(completed: boolean): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#options.signal.removeEventListener("abort", this.#abortAll);
    if (!completed) {
      this.#abortAll();
      return;
    }
    // The answer ended on its final event: let the SDK release the response.
    await this.#source?.return?.()?.catch(() => undefined);
  }
}

/** Runs a translator over events: for translators tested without HTTP. */
export async function* translateAll<T>(translator: StreamTranslator<T>, events: AsyncIterable<T>): AsyncGenerator<Chunk> {
  const out: Chunk[] = [];
  for await (const event of events) {
    const last = translator.push(event, out);
    yield* out;
    out.length = 0;
    if (last) return;
  }
  translator.end(out);
  yield* out;
}

/** Thrown by translators when the server closed the stream before its final event. */
export function endedEarly(context: ErrorContext, missing: string): ProviderError {
  return new ProviderError({
    kind: "network",
    message: `${context.providerName} network error: the stream ended before ${missing}`,
  });
}
