import { ProviderError, toProviderError } from "./errors.js";
import type { ErrorContext } from "./errors.js";
import { defaultStallTimeouts } from "./stall.js";
import type { StallTimeouts } from "./stall.js";
import type { ChunkIterator } from "./chunk-stream.js";
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
class GuardedIterator<T> implements ChunkIterator {
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
    try {
      this.#start();
      for (;;) {
        if (this.#options.signal.aborted) throw abortedError(this.#options.context);
        if (this.#head < this.#queue.length) return { value: this.#queue[this.#head++] as Chunk, done: false };
        this.#drained();
        if (this.#ended || this.#closed) {
          await this.#close(true);
          return { value: undefined, done: true };
        }
        this.#take(await this.#nextEvent());
      }
    } catch (error) {
      throw await this.#failure(error);
    }
  }

  async forEach(onChunk: (chunk: Chunk) => boolean): Promise<boolean> {
    const signal = this.#options.signal;
    try {
      this.#start();
      for (;;) {
        // Once per event: an abort also fails the SDK's pending read, so nothing waits on it.
        if (signal.aborted) throw abortedError(this.#options.context);
        const queue = this.#queue;
        while (this.#head < queue.length) {
          if (!onChunk(queue[this.#head++] as Chunk)) {
            await this.return();
            return false;
          }
        }
        this.#drained();
        if (this.#ended || this.#closed) {
          await this.#close(true);
          return true;
        }
        this.#take(await this.#nextEvent());
      }
    } catch (error) {
      throw await this.#failure(error);
    }
  }

  async return(): Promise<IteratorResult<Chunk>> {
    // Leaving early closes the HTTP stream instead of draining it.
    await this.#close(this.#ended && this.#head >= this.#queue.length);
    return { value: undefined, done: true };
  }

  /**
   * Every queued chunk was handed out. The queue is emptied only every so many
   * chunks: setting an array's length is a runtime call, once per event it
   * showed in the profile (issue 18); until then new chunks are appended.
   */
  #drained(): void {
    if (this.#head < 64) return;
    this.#queue.length = 0;
    this.#head = 0;
  }

  #start(): void {
    if (this.#started) return;
    this.#started = true;
    const { signal, context } = this.#options;
    if (signal.aborted) throw abortedError(context);
    signal.addEventListener("abort", this.#abortAll, { once: true });
  }

  async #failure(error: unknown): Promise<ProviderError> {
    await this.#close(false);
    const { signal, context } = this.#options;
    if (signal.aborted) return abortedError(context);
    if (this.#stalled) return this.#stalled;
    return toProviderError(error, context);
  }

  async #open(): Promise<AsyncIterator<T>> {
    this.#sdk = await this.#options.open(this.#controller.signal);
    this.#source = this.#sdk[Symbol.asyncIterator]();
    return this.#source;
  }

  /** Waits for the SDK's next event, timed by the stall timer. */
  #nextEvent(): Promise<IteratorResult<T>> {
    this.#waitingSince = Date.now();
    this.#timer ??= setTimeout(this.#check, this.#limit());
    return this.#source === undefined ? this.#open().then((source) => source.next()) : this.#source.next();
  }

  /** Translates one event into the queue (none left when the answer is complete). */
  #take(result: IteratorResult<T>): void {
    this.#waitingSince = undefined;
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
    const elapsed = Date.now() - this.#waitingSince;
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
