import { describe, expect, it } from "vitest";
import type { Chunk, ProviderRequest } from "../types.js";
import { MockProvider } from "./mock-provider.js";

function request(signal = new AbortController().signal): ProviderRequest {
  return { systemPrompt: "system", messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], signal };
}

async function collect(stream: AsyncIterable<Chunk>): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe("MockProvider", () => {
  it("yields reasoning, signature, text, tool-call deltas, usage with cost and stop", async () => {
    const provider = new MockProvider({
      scenario: {
        turns: [
          {
            reasoning: "think",
            reasoningSignature: "sig",
            text: "hello",
            toolCalls: [{ id: "call_1", name: "read_file", arguments: { path: "a.ts" } }],
            chunkSize: 4,
            usage: { inputTokens: 1_000_000, outputTokens: 0 },
          },
        ],
      },
      model: { id: "m", contextWindow: 1000, maxOutputTokens: 100, inputPrice: 2, outputPrice: 8, supportsImages: false, supportsReasoning: true },
    });
    const chunks = await collect(provider.createMessage(request()));
    expect(
      chunks
        .filter((chunk) => chunk.type === "reasoning")
        .map((chunk) => chunk.text)
        .join(""),
    ).toBe("think");
    expect(chunks).toContainEqual({ type: "reasoning", text: "", signature: "sig" });
    expect(
      chunks
        .filter((chunk) => chunk.type === "text")
        .map((chunk) => chunk.text)
        .join(""),
    ).toBe("hello");
    const calls = chunks.filter((chunk) => chunk.type === "tool_call");
    expect(calls[0]).toMatchObject({ index: 0, id: "call_1", name: "read_file" });
    expect(calls.map((chunk) => chunk.argumentsDelta).join("")).toBe('{"path":"a.ts"}');
    expect(chunks.at(-2)).toEqual({ type: "usage", inputTokens: 1_000_000, outputTokens: 0, cost: 2 });
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "tool_use" });
    expect(provider.requests).toHaveLength(1);
  });

  it("T11: throws the scripted HTTP error as a typed ProviderError with retry-after", async () => {
    const provider = new MockProvider({ scenario: { turns: [{ error: { status: 429, headers: { "retry-after": "2" } } }] } });
    await expect(collect(provider.createMessage(request()))).rejects.toMatchObject({ kind: "rate_limit", status: 429, retryAfterMs: 2000 });
  });

  it("drops as network, stalls as stalled, and refuses requests past the scenario", async () => {
    const provider = new MockProvider({
      scenario: {
        turns: [
          { text: "abcdef", chunkSize: 1, dropAfterChunks: 2 },
          { text: "abc", chunkSize: 1, stallAfterChunks: 1 },
        ],
      },
      stall: { firstChunkMs: 1000, betweenChunksMs: 5 },
    });
    await expect(collect(provider.createMessage(request()))).rejects.toMatchObject({ kind: "network" });
    await expect(collect(provider.createMessage(request()))).rejects.toMatchObject({ kind: "stalled" });
    await expect(collect(provider.createMessage(request()))).rejects.toMatchObject({ kind: "bad_request", message: expect.stringContaining("2 turns") });
  });

  it("stops with an aborted error when the signal aborts mid-stream", async () => {
    const provider = new MockProvider({ scenario: { turns: [{ text: "abcdef", chunkSize: 1, delayMs: 1 }] } });
    const controller = new AbortController();
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of provider.createMessage(request(controller.signal))) {
          if (chunk.type === "text") seen.push(chunk.text);
          if (seen.length === 2) controller.abort();
        }
      })(),
    ).rejects.toMatchObject({ kind: "aborted" });
    expect(seen).toEqual(["a", "b"]);
  });
});
