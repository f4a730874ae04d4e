import { describe, expect, it } from "vitest";
import { useScriptedServer } from "./test-support/scripted-server-fixture.js";
import { AnthropicProvider } from "./anthropic.js";
import type { ChunkIterator } from "./chunk-stream.js";
import { ProviderError } from "./errors.js";
import { modelInfo } from "./models.js";
import type { Scenario } from "./scripted/scenario.js";
import type { StallTimeouts } from "./stall.js";
import { collect, collectFrom, readFileTool, reasoningOf, simpleRequest, textOf, toolCallsOf } from "./test-support/chunks.js";

const scripted = useScriptedServer();

async function providerFor(scenario: Scenario, options: { stall?: Partial<StallTimeouts>; thinkingBudgetTokens?: number; model?: string } = {}) {
  const server = await scripted.start(scenario);
  const { model: _model, ...rest } = options;
  return new AnthropicProvider({
    apiKey: "sk-ant-test-secret",
    model: modelInfo(options.model ?? "claude-sonnet-5-5"),
    baseUrl: server.url,
    ...rest,
  });
}

function errorOf(value: unknown): ProviderError {
  expect(value).toBeInstanceOf(ProviderError);
  return value as ProviderError;
}

describe("AnthropicProvider through the SDK and the scripted server", () => {
  it("streams text split at every character", async () => {
    const provider = await providerFor({ turns: [{ text: "Hello, wörld 🌍!", chunkSize: 1 }] });
    const { chunks, error } = await collectFrom(provider);
    expect(error).toBeUndefined();
    expect(textOf(chunks)).toBe("Hello, wörld 🌍!");
    expect(chunks.filter((chunk) => chunk.type === "text").length).toBeGreaterThan(10);
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "end_turn" });
  });

  it("streams thinking with its signature and redacted thinking, and sends the thinking budget", async () => {
    const provider = await providerFor(
      { turns: [{ redactedReasoning: ["opaque=="], reasoning: "Let me think.", reasoningSignature: "EqQBCgIYAh", text: "Done." }] },
      { thinkingBudgetTokens: 2048, model: "claude-haiku-4-5" },
    );
    const { chunks } = await collectFrom(provider);
    expect(reasoningOf(chunks)).toBe("Let me think.");
    expect(chunks).toContainEqual({ type: "reasoning", text: "", signature: "EqQBCgIYAh" });
    expect(chunks).toContainEqual({ type: "reasoning", text: "", redactedData: "opaque==" });
    expect(scripted.server!.requests[0]!.body).toMatchObject({ thinking: { type: "enabled", budget_tokens: 2048 } });
  });

  it("asks newer models for adaptive thinking instead of a budget", async () => {
    const provider = await providerFor({ turns: [{ text: "ok" }] }, { thinkingBudgetTokens: 2048 });
    await collectFrom(provider);
    expect(scripted.server!.requests[0]!.body).toMatchObject({ thinking: { type: "adaptive" } });
  });

  it("streams several tool calls with arguments split at awkward points", async () => {
    const content = 'line "one"\n\tline \\two\\ ünïcode';
    const provider = await providerFor({
      turns: [
        {
          text: "Reading both.",
          toolCalls: [
            { id: "toolu_a", name: "read_file", arguments: { path: "src/a.ts" } },
            { id: "toolu_b", name: "write_to_file", arguments: { path: "b.txt", content, lines: [1, 2] } },
          ],
          chunkSize: 3,
        },
      ],
    });
    const { chunks, error } = await collectFrom(provider, simpleRequest(undefined, { tools: [readFileTool] }));
    expect(error).toBeUndefined();
    const calls = toolCallsOf(chunks);
    expect(calls).toEqual([
      { id: "toolu_a", name: "read_file", arguments: '{"path":"src/a.ts"}' },
      { id: "toolu_b", name: "write_to_file", arguments: JSON.stringify({ path: "b.txt", content, lines: [1, 2] }) },
    ]);
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "tool_use" });
  });

  it("reports usage with cache reads and writes, priced from the catalogue", async () => {
    const provider = await providerFor({
      turns: [{ text: "ok", usage: { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 10_000, cacheWriteTokens: 2000 } }],
    });
    const { chunks } = await collectFrom(provider);
    const usage = chunks.find((chunk) => chunk.type === "usage");
    // claude-sonnet-5-5: $2 in, $10 out, $0.10 cache read, $2.50 cache write per million tokens
    expect(usage).toMatchObject({ inputTokens: 1000, outputTokens: 200, cacheReadTokens: 10_000, cacheWriteTokens: 2000 });
    expect((usage as { cost: number }).cost).toBeCloseTo((1000 * 2 + 200 * 10 + 10_000 * 0.1 + 2000 * 2.5) / 1e6, 10);
  });

  it("sends the system prompt, tools and latest user turns with cache breakpoints", async () => {
    const provider = await providerFor({ turns: [{ text: "ok" }] });
    await collectFrom(provider, simpleRequest(undefined, { tools: [readFileTool] }));
    const body = scripted.server!.requests[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: "claude-sonnet-5-5",
      stream: true,
      system: [{ type: "text", text: "You are cairn.", cache_control: { type: "ephemeral" } }],
      tools: [{ name: "read_file", input_schema: { type: "object" }, cache_control: { type: "ephemeral" } }],
      messages: [{ role: "user", content: [{ type: "text", text: "Say hello.", cache_control: { type: "ephemeral" } }] }],
    });
  });

  it.each([
    [{ status: 429, headers: { "retry-after": "3" } }, "rate_limit", true],
    [{ status: 529 }, "overloaded", true],
    [{ status: 500 }, "server", true],
    [{ status: 401 }, "auth", false],
    [{ status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 250000 tokens > 200000 maximum" } } }, "context_window", false],
    [{ status: 400 }, "bad_request", false],
  ])("T11: turns HTTP error %o into kind %s", async (httpError, kind, retryable) => {
    const provider = await providerFor({ turns: [{ error: httpError }] });
    const error = errorOf((await collectFrom(provider)).error);
    expect(error).toMatchObject({ kind, status: httpError.status, retryable });
    if (kind === "rate_limit") expect(error.retryAfterMs).toBe(3000);
    if (kind === "auth") {
      expect(error.message).toContain("ANTHROPIC_API_KEY");
      expect(error.message).not.toContain("sk-ant-test-secret");
    }
  });

  it("honours retry-after-ms over retry-after", async () => {
    const provider = await providerFor({ turns: [{ error: { status: 429, headers: { "retry-after": "3", "retry-after-ms": "250" } } }] });
    expect(errorOf((await collectFrom(provider)).error).retryAfterMs).toBe(250);
  });

  it("turns an overloaded error event inside the stream into kind overloaded, after the text before it", async () => {
    const provider = await providerFor({ turns: [{ text: "partial answer", chunkSize: 4, streamError: { type: "overloaded_error", message: "Overloaded", afterChunks: 5 } }] });
    const { chunks, error } = await collectFrom(provider);
    expect(textOf(chunks)).toBe("partial ");
    expect(errorOf(error)).toMatchObject({ kind: "overloaded", retryable: true });
  });

  it("fails as stalled when nothing arrives, and when the stream goes silent", async () => {
    // Generous limits for what does arrive (the machine is shared); the stall itself is certain.
    const provider = await providerFor(
      {
        turns: [
          { text: "never", stallAfterChunks: 0 },
          { text: "abcdef", chunkSize: 1, stallAfterChunks: 5 },
        ],
      },
      { stall: { firstChunkMs: 300, betweenChunksMs: 300 } },
    );
    expect(errorOf((await collectFrom(provider)).error).message).toContain("before the first chunk");
    const patient = new AnthropicProvider({
      apiKey: "k",
      model: modelInfo("claude-sonnet-5-5"),
      baseUrl: scripted.server!.url,
      stall: { firstChunkMs: 5000, betweenChunksMs: 1000 },
    });
    const second = await collectFrom(patient);
    expect(errorOf(second.error)).toMatchObject({ kind: "stalled", retryable: true });
    expect(textOf(second.chunks)).toBe("ab");
    await scripted.server!.waitForClientClose(1);
  });

  it("fails as network when the connection drops mid-stream or before the response", async () => {
    const provider = await providerFor({
      turns: [
        { text: "abcdefgh", chunkSize: 1, dropAfterChunks: 6 },
        { text: "x", dropAfterChunks: 0 },
      ],
    });
    const first = await collectFrom(provider);
    expect(textOf(first.chunks)).toBe("abc");
    expect(errorOf(first.error)).toMatchObject({ kind: "network", retryable: true });
    expect(errorOf((await collectFrom(provider)).error)).toMatchObject({ kind: "network" });
  });

  it("closes the socket at once when aborted mid-stream", async () => {
    const provider = await providerFor({ turns: [{ text: "a".repeat(200), chunkSize: 1, delayMs: 5 }] });
    const controller = new AbortController();
    const stream = provider.createMessage(simpleRequest(controller.signal));
    const consumed = collect(stream);
    await scripted.server!.waitForChunks(0, 10);
    controller.abort();
    const { chunks, error } = await consumed;
    expect(errorOf(error).kind).toBe("aborted");
    await scripted.server!.waitForClientClose(0);
    expect(scripted.server!.progress(0).completed).toBe(false);
    expect(textOf(chunks).length).toBeLessThan(200);
  });

  it("an answer stopped mid-stream still reports the input tokens the API counted at its start, once", async () => {
    const usage = { inputTokens: 5_000, outputTokens: 300, cacheReadTokens: 1_000 };
    const provider = await providerFor({ turns: [{ text: "a".repeat(200), chunkSize: 1, delayMs: 5, usage }] });
    const controller = new AbortController();
    const iterator: ChunkIterator = provider.createMessage(simpleRequest(controller.signal))[Symbol.asyncIterator]();
    const consumed = collect({ [Symbol.asyncIterator]: () => iterator });
    await scripted.server!.waitForChunks(0, 10);
    controller.abort();
    const { chunks } = await consumed;
    expect(chunks.some((chunk) => chunk.type === "usage")).toBe(false);
    // message_start's counts: the input and cache reads, and the one output token it reports.
    const unreported = iterator.unreportedUsage?.();
    expect(unreported).toMatchObject({ type: "usage", inputTokens: 5_000, outputTokens: 1, cacheReadTokens: 1_000 });
    expect(unreported?.cost).toBeCloseTo((5_000 * 2 + 1 * 10 + 1_000 * 0.1) / 1e6, 10);
    expect(iterator.unreportedUsage?.()).toBeUndefined();
  });

  it("an answer read to its end leaves no usage unreported", async () => {
    const provider = await providerFor({ turns: [{ text: "done", usage: { inputTokens: 40, outputTokens: 2 } }] });
    const iterator: ChunkIterator = provider.createMessage(simpleRequest())[Symbol.asyncIterator]();
    const { chunks } = await collect({ [Symbol.asyncIterator]: () => iterator });
    expect(chunks.filter((chunk) => chunk.type === "usage")).toHaveLength(1);
    expect(iterator.unreportedUsage?.()).toBeUndefined();
  });

  it("closes the socket when aborted while waiting for the response headers", async () => {
    const provider = await providerFor({ turns: [{ text: "never", stallAfterChunks: 0 }] });
    const controller = new AbortController();
    const consumed = collect(provider.createMessage(simpleRequest(controller.signal)));
    while (scripted.server!.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(errorOf((await consumed).error).kind).toBe("aborted");
    await scripted.server!.waitForClientClose(0);
  });
});
