import { describe, expect, it } from "vitest";
import { withStreamHooks } from "./stream-hooks.js";
import type { ChunkIterator } from "./chunk-stream.js";
import type { Chunk, UsageChunk } from "./types.js";

async function* chunks(texts: string[], failAfter?: number): AsyncGenerator<Chunk> {
  for (const [index, text] of texts.entries()) {
    if (index === failAfter) throw new Error("dropped");
    yield { type: "text", text };
  }
}

describe("withStreamHooks wraps a stream in one thin iterator, not a generator per wrapper", () => {
  it("passes every chunk through the chunk hook and ends once", async () => {
    const seen: string[] = [];
    let ends = 0;
    const stream = withStreamHooks(() => chunks(["a", "b", "c"]), {
      start: () => void seen.push("start"),
      chunk: (chunk) => void seen.push(chunk.type === "text" ? chunk.text : chunk.type),
      end: () => void (ends += 1),
    });
    const out: string[] = [];
    for await (const chunk of stream) if (chunk.type === "text") out.push(chunk.text);
    expect(out).toEqual(["a", "b", "c"]);
    expect(seen).toEqual(["start", "a", "b", "c"]);
    expect(ends).toBe(1);
  });

  it("hands a failure to the error hook before passing it on, and ends once", async () => {
    const errors: unknown[] = [];
    let ends = 0;
    const stream = withStreamHooks(() => chunks(["a", "b"], 1), { error: (error) => void errors.push(error), end: () => void (ends += 1) });
    const out: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) if (chunk.type === "text") out.push(chunk.text);
      })(),
    ).rejects.toThrow("dropped");
    expect(out).toEqual(["a"]);
    expect(errors).toHaveLength(1);
    expect(ends).toBe(1);
  });

  it("a failing start never opens the stream; leaving early ends it", async () => {
    let opened = false;
    const refused = withStreamHooks(
      () => {
        opened = true;
        return chunks(["a"]);
      },
      { start: () => Promise.reject(new Error("budget spent")) },
    );
    await expect(refused[Symbol.asyncIterator]().next()).rejects.toThrow("budget spent");
    expect(opened).toBe(false);
    let ends = 0;
    const left = withStreamHooks(() => chunks(["a", "b"]), { end: () => void (ends += 1) });
    for await (const chunk of left) if (chunk.type === "text") break;
    expect(ends).toBe(1);
  });

  it("a stream left early passes on the usage its provider had not reported yet (an interrupted answer's input tokens)", async () => {
    const usage: UsageChunk = { type: "usage", inputTokens: 5_000, outputTokens: 1 };
    const inner: AsyncIterable<Chunk> = {
      [Symbol.asyncIterator]: (): ChunkIterator => {
        const source = chunks(["a", "b"]);
        return { next: () => source.next(), return: () => source.return(undefined), unreportedUsage: () => usage };
      },
    };
    const iterator: ChunkIterator = withStreamHooks(() => inner, {})[Symbol.asyncIterator]();
    expect(iterator.unreportedUsage?.()).toBeUndefined();
    await iterator.next();
    await iterator.return?.();
    expect(iterator.unreportedUsage?.()).toEqual(usage);
  });
});
