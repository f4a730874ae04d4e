import { ProviderError, toProviderError } from "./errors.js";
import type { ErrorContext } from "./errors.js";
import { defaultStallTimeouts } from "./stall.js";
import type { StallTimeouts } from "./stall.js";
import type { ChunkIterator } from "./chunk-stream.js";
import type { Chunk, UsageChunk } from "./types.js";

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
  /** The usage reported so far and not yet in a usage chunk (see ChunkIterator.unreportedUsage); once. */
  unreportedUsage?(): UsageChunk | undefined;
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
 * A stall is declared on the STALL_TICKS-th tick in a row (a tick: the limit / STALL_TICKS) that finds
 * the same wait under way with no event since the tick before: between the limit and the limit plus
 * a tick after the last event, or after the start of a wait that had no tick yet.
 */
const STALL_TICKS = 4;

/**
 * Push mode hands the event loop back after this much work in a row. Events the
 * SDK has buffered (a network read holds up to 64 KiB, thousands of deltas) are
 * otherwise all handled in one task, and a terminal UI sharing the thread could
 * not read a key until they are: a fast answer would hold the keys for 50-100 ms.
 */
const pushSliceMs = 4;
/** Events between two looks at the clock. */
const eventsPerClockRead = 64;

/** Resolves after the event loop has polled for I/O (keys, sockets, timers). */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * One iterator over the SDK's events: each `next()` hands out the chunks already translated or
 * pulls the next event and translates it in place. A stall is detected without reading the clock
 * per event: while a wait on the SDK is under way, a timer ticks every quarter of the limit, and a
 * wait that saw no event for four ticks in a row (the limit, plus at most a tick) has stalled. Time
 * spent outside a wait does not count. On a stall the HTTP request is aborted, which
 * fails the SDK's pending read, and that failure is reported as `stalled`.
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
  /** A wait on the SDK is under way. */
  #waiting = false;
  /** Stall ticks in a row that found the same wait under way and no event. */
  #idleTicks = 0;
  /** `#received` at the last tick. */
  #receivedAtTick = 0;
  /** The limit the running tick was armed for. */
  #tickLimit = 0;
  /** The signal given to the stream was aborted (a field: its getter costs a brand check per event). */
  #signalAborted = false;
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

  readonly #onAbort = (): void => {
    this.#signalAborted = true;
    this.#abortAll();
  };

  #arm(): void {
    this.#tickLimit = this.#limit();
    this.#timer = setTimeout(this.#tick, Math.ceil(this.#tickLimit / STALL_TICKS));
  }

  async next(): Promise<IteratorResult<Chunk>> {
    try {
      this.#start();
      for (;;) {
        if (this.#signalAborted) throw abortedError(this.#options.context);
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
    try {
      this.#start();
      let sliceStart = performance.now();
      let events = 0;
      for (;;) {
        events += 1;
        if (events % eventsPerClockRead === 0 && performance.now() - sliceStart >= pushSliceMs) {
          await yieldToEventLoop();
          sliceStart = performance.now();
        }
        // Once per event: an abort also fails the SDK's pending read, so nothing waits on it.
        if (this.#signalAborted) throw abortedError(this.#options.context);
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

  unreportedUsage(): UsageChunk | undefined {
    return this.#translator.unreportedUsage?.();
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
    signal.addEventListener("abort", this.#onAbort, { once: true });
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
    this.#waiting = true;
    if (this.#timer === undefined) this.#arm();
    return this.#source === undefined ? this.#open().then((source) => source.next()) : this.#source.next();
  }

  /** Translates one event into the queue (none left when the answer is complete). */
  #take(result: IteratorResult<T>): void {
    this.#waiting = false;
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

  readonly #tick = (): void => {
    this.#timer = undefined;
    if (this.#closed) return;
    const fresh = this.#received !== this.#receivedAtTick || this.#tickLimit !== this.#limit();
    this.#receivedAtTick = this.#received;
    if (!this.#waiting) {
      this.#idleTicks = 0;
      return; // re-armed by the next wait
    }
    this.#idleTicks = fresh ? 0 : this.#idleTicks + 1;
    if (this.#idleTicks < STALL_TICKS) {
      this.#arm();
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
    this.#options.signal.removeEventListener("abort", this.#onAbort);
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
