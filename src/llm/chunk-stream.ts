import type { Chunk, UsageChunk } from "./types.js";

/**
 * An iterator over a provider's chunks that can also push them (issue 18): in
 * push mode each chunk is handed to a synchronous callback as soon as it is
 * translated, so reading an answer costs one wait per SDK event, as reading the
 * SDK's stream alone does, and not a second one per chunk in the reader.
 */
export interface ChunkIterator extends AsyncIterator<Chunk> {
  /**
   * Hands every further chunk to `onChunk` until the stream ends (resolves
   * true) or `onChunk` returns false (resolves false; the stream has then been
   * left as by `return()`). Fails as `next()` would.
   */
  forEach?(onChunk: (chunk: Chunk) => boolean): Promise<boolean>;
  /**
   * For an answer left before its end (interrupted, or left after its first tool): the usage
   * the provider had reported so far, which it bills all the same (an Anthropic answer's input
   * tokens come at its start). Once; undefined when the stream's own usage chunk was handed out.
   */
  unreportedUsage?(): UsageChunk | undefined;
}

/** Push mode where the iterator has it, else the same over `next()`. */
export async function forEachChunk(iterator: ChunkIterator, onChunk: (chunk: Chunk) => boolean): Promise<boolean> {
  if (iterator.forEach !== undefined) return iterator.forEach(onChunk);
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) return true;
    if (!onChunk(next.value)) {
      await iterator.return?.();
      return false;
    }
  }
}
