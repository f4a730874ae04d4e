import { afterEach, describe, expect, it } from "vitest";
import { AnthropicProvider } from "./anthropic.js";
import type { ChunkIterator } from "./chunk-stream.js";
import { forEachChunk } from "./chunk-stream.js";
import { modelInfo } from "./models.js";
import { OpenAiProvider } from "./openai.js";
import { startScriptedServer } from "./scripted/server.js";
import type { ScriptedServer } from "./scripted/server.js";
import { withStreamHooks } from "./stream-hooks.js";
import type { Chunk, Provider } from "./types.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const turn = { reasoning: "think", reasoningSignature: "signed", text: "Hello <b>world</b>, ünïcödé 😀 ".repeat(20), chunkSize: 3, toolCalls: [{ id: "call_fixed", name: "read_file", arguments: { path: "a.txt" } }] };

async function providers(): Promise<Provider[]> {
  server = await startScriptedServer({ scenario: { turns: [turn, turn, turn, turn, turn, turn] } });
  return [
    new AnthropicProvider({ apiKey: "k", model: modelInfo("claude-sonnet-5-5"), baseUrl: server.url, thinkingBudgetTokens: 2048 }),
    new OpenAiProvider({ apiKey: "k", model: modelInfo("gpt-5.4"), baseUrl: `${server.url}/v1` }),
  ];
}

function open(provider: Provider): ChunkIterator {
  return provider.createMessage({ systemPrompt: "s", messages: [{ role: "user", content: [{ type: "text", text: "go" }] }], signal: new AbortController().signal })[Symbol.asyncIterator]();
}

async function pulled(iterator: ChunkIterator): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) chunks.push(next.value);
  return chunks;
}

describe("guardedStream push mode (issue 18: one wait per SDK event)", () => {
  it("hands over the same chunks, in the same order, as next() does, also through a hooked wrapper", async () => {
    for (const provider of await providers()) {
      const expected = await pulled(open(provider));
      expect(expected.some((chunk) => chunk.type === "tool_call")).toBe(true);
      const pushed: Chunk[] = [];
      const iterator = open(provider);
      expect(iterator.forEach).toBeTypeOf("function");
      expect(await forEachChunk(iterator, (chunk) => (pushed.push(chunk), true))).toBe(true);
      expect(pushed).toEqual(expected);

      const seen: Chunk[] = [];
      const hooked = withStreamHooks(() => provider.createMessage({ systemPrompt: "s", messages: [{ role: "user", content: [{ type: "text", text: "go" }] }], signal: new AbortController().signal }), {
        chunk: (chunk) => void seen.push(chunk),
      })[Symbol.asyncIterator]() as ChunkIterator;
      const throughHooks: Chunk[] = [];
      expect(await forEachChunk(hooked, (chunk) => (throughHooks.push(chunk), true))).toBe(true);
      expect(throughHooks).toEqual(expected);
      expect(seen).toEqual(expected);
    }
  });

  it("stops when the reader says so, and the stream is left (a later next() is done)", async () => {
    const [provider] = await providers();
    const iterator = open(provider!);
    const taken: Chunk[] = [];
    expect(await iterator.forEach!((chunk) => (taken.push(chunk), taken.length < 5))).toBe(false);
    expect(taken).toHaveLength(5);
    expect((await iterator.next()).done).toBe(true);
  });
});
