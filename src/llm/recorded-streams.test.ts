import { afterEach, describe, expect, it } from "vitest";
import { AnthropicProvider } from "./anthropic.js";
import { modelInfo } from "./models.js";
import { NativeToolCallAssembler } from "./native-tool-calls.js";
import { OpenAiProvider } from "./openai.js";
import type { Chunk, Provider } from "./types.js";
import { recording, startReplayServer } from "./test-support/replay-server.js";
import type { ReplayServer } from "./test-support/replay-server.js";
import { collectFrom, reasoningOf, textOf } from "./test-support/chunks.js";

// Event streams written from the providers' published streaming documentation (field order,
// extra fields, pings between deltas, usage in message_delta, choices-less usage chunks ...),
// replayed through the official SDKs, so cairn's scripted server is not the only witness of the wire format.

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function anthropicReplay(file: string, model = "claude-sonnet-5-5"): Promise<Provider> {
  server = await startReplayServer(recording(file));
  return new AnthropicProvider({ apiKey: "k", model: modelInfo(model), baseUrl: server.url });
}

async function openAiReplay(file: string, model: string): Promise<Provider> {
  server = await startReplayServer(recording(file));
  return new OpenAiProvider({ model: modelInfo(model), baseUrl: `${server.url}/v1` });
}

function toolBlocks(chunks: Chunk[]) {
  const assembler = new NativeToolCallAssembler();
  for (const chunk of chunks) if (chunk.type === "tool_call") assembler.push(chunk);
  return assembler.finish();
}

describe("recorded Anthropic streams", () => {
  it("plain text with a ping between blocks", async () => {
    const { chunks, error } = await collectFrom(await anthropicReplay("anthropic-text.sse"));
    expect(error).toBeUndefined();
    expect(textOf(chunks)).toBe("Hello! How can I help with your code today?");
    const usage = chunks.at(-2);
    expect(usage).toMatchObject({ type: "usage", inputTokens: 25, outputTokens: 15 });
    expect((usage as { cost: number }).cost).toBeCloseTo((25 * 2 + 15 * 10) / 1e6, 12);
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "end_turn" });
  });

  it("thinking with signature, text and a tool call, with cumulative usage in message_delta", async () => {
    const { chunks, error } = await collectFrom(await anthropicReplay("anthropic-thinking-tool.sse", "claude-haiku-4-5-20251001"));
    expect(error).toBeUndefined();
    expect(reasoningOf(chunks)).toBe("The user wants the config read first. I will open package.json.");
    expect(chunks).toContainEqual({ type: "reasoning", text: "", signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds" });
    expect(textOf(chunks)).toBe("I'll read the file.");
    expect(toolBlocks(chunks)).toEqual([{ type: "tool_use", id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", name: "read_file", params: { path: "package.json" }, partial: false }]);
    expect(chunks.find((chunk) => chunk.type === "usage")).toMatchObject({
      inputTokens: 1204,
      outputTokens: 89,
      cacheReadTokens: 9120,
      cacheWriteTokens: 2048,
    });
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "tool_use" });
  });

  it("an overloaded error event after some text", async () => {
    const { chunks, error } = await collectFrom(await anthropicReplay("anthropic-overloaded.sse"));
    expect(textOf(chunks)).toBe("Let me");
    expect(error).toMatchObject({ kind: "overloaded", retryable: true });
  });
});

describe("recorded OpenAI-compatible streams", () => {
  it("OpenAI parallel tool calls with a choices-less usage chunk", async () => {
    const { chunks, error } = await collectFrom(await openAiReplay("openai-parallel-tool-calls.sse", "gpt-4o-2024-08-06"));
    expect(error).toBeUndefined();
    expect(toolBlocks(chunks)).toEqual([
      { type: "tool_use", id: "call_DdmO9pD3xa9XTPNJ32zg2hcA", name: "read_file", params: { path: "src/index.ts" }, partial: false },
      { type: "tool_use", id: "call_ABPZ4bQ6nN5UBGR7k0D4s8Jt", name: "search_files", params: { regex: "TODO\\(", path: "." }, partial: false },
    ]);
    const usage = chunks.at(-2);
    expect(usage).toMatchObject({ type: "usage", inputTokens: 230, outputTokens: 48, cacheReadTokens: 1920 });
    expect((usage as { cost: number }).cost).toBeCloseTo((230 * 2.5 + 48 * 10 + 1920 * 1.25) / 1e6, 12);
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "tool_use" });
  });

  it("Ollama-style `reasoning` deltas from a local model, priced at zero", async () => {
    const { chunks, error } = await collectFrom(await openAiReplay("openai-compatible-reasoning.sse", "qwen3:8b"));
    expect(error).toBeUndefined();
    expect(reasoningOf(chunks)).toBe("Two plus two is four.");
    expect(textOf(chunks)).toBe("The answer is 4.");
    expect(chunks.slice(-2)).toEqual([
      { type: "usage", inputTokens: 18, outputTokens: 31, cost: 0 },
      { type: "stop", reason: "end_turn" },
    ]);
  });

  it("DeepSeek-style `reasoning_content` with nulls and a length stop", async () => {
    const { chunks, error } = await collectFrom(await openAiReplay("openai-deepseek-reasoning-content.sse", "deepseek-reasoner"));
    expect(error).toBeUndefined();
    expect(reasoningOf(chunks)).toBe("Check the tests first.");
    expect(textOf(chunks)).toBe("Running them.");
    expect(chunks.at(-2)).toMatchObject({ type: "usage", inputTokens: 56, outputTokens: 4096, cacheReadTokens: 64 });
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "max_tokens" });
  });
});
