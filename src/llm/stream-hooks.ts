import { forEachChunk } from "./chunk-stream.js";
import type { ChunkIterator } from "./chunk-stream.js";
import type { Chunk, UsageChunk } from "./types.js";

/** What a wrapper around a provider's stream wants to do at its edges. */
export interface StreamHooks {
  /** Before the stream is opened (a wait, a check); may throw. */
  start?: () => Promise<void> | void;
  /** Each chunk as it passes. */
  chunk?: (chunk: Chunk) => void;
  /** A failure of the stream, before it is passed on. */
  error?: (error: unknown) => Promise<void> | void;
  /** Once, when the stream ended, failed or was left. */
  end?: () => Promise<void> | void;
}

/**
 * A stream with hooks at its edges, as one thin iterator: each chunk costs one
 * `then` rather than a generator's resume and await (issue 18: every async
 * generator between the SDK and the Task is paid per delta).
 */
export function withStreamHooks(open: () => AsyncIterable<Chunk>, hooks: StreamHooks): AsyncIterable<Chunk> {
  return { [Symbol.asyncIterator]: () => new HookedIterator(open, hooks) };
}

class HookedIterator implements ChunkIterator {
  #inner: ChunkIterator | undefined;
  #ended = false;

  constructor(
    private readonly open: () => AsyncIterable<Chunk>,
    private readonly hooks: StreamHooks,
  ) {}

  next(): Promise<IteratorResult<Chunk>> {
    if (this.#inner === undefined) return this.#first();
    return this.#inner.next().then(this.#passed, this.#failed);
  }

  async forEach(onChunk: (chunk: Chunk) => boolean): Promise<boolean> {
    if (this.#inner === undefined) {
      // Push mode from the start: the first chunk through next(), which opens the stream.
      const first = await this.next();
      if (first.done === true) return true;
      if (!onChunk(first.value)) {
        await this.return();
        return false;
      }
    }
    const inner = this.#inner as ChunkIterator;
    const hook = this.hooks.chunk;
    let ended: boolean;
    try {
      ended = await forEachChunk(inner, hook === undefined ? onChunk : (chunk) => (hook(chunk), onChunk(chunk)));
    } catch (error) {
      return this.#failed(error);
    }
    await this.#end();
    return ended;
  }

  unreportedUsage(): UsageChunk | undefined {
    return this.#inner?.unreportedUsage?.();
  }

  async return(): Promise<IteratorResult<Chunk>> {
    try {
      await this.#inner?.return?.();
    } finally {
      await this.#end();
    }
    return { value: undefined, done: true };
  }

  async #first(): Promise<IteratorResult<Chunk>> {
    try {
      await this.hooks.start?.();
      this.#inner = this.open()[Symbol.asyncIterator]();
    } catch (error) {
      return this.#failed(error);
    }
    return this.#inner.next().then(this.#passed, this.#failed);
  }

  readonly #passed = (result: IteratorResult<Chunk>): IteratorResult<Chunk> | Promise<IteratorResult<Chunk>> => {
    if (result.done !== true) {
      this.hooks.chunk?.(result.value);
      return result;
    }
    return this.#end().then(() => result);
  };

  readonly #failed = async (error: unknown): Promise<never> => {
    try {
      await this.hooks.error?.(error);
    } finally {
      await this.#end();
    }
    throw error;
  };

  async #end(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    await this.hooks.end?.();
  }
}
