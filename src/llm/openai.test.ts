import { describe, expect, it } from "vitest";
import { useScriptedServer } from "./test-support/scripted-server-fixture.js";
import { ProviderError } from "./errors.js";
import { modelInfo } from "./models.js";
import { OpenAiProvider, compatibilityFor } from "./openai.js";
import type { OpenAiProviderOptions } from "./openai.js";
import type { Scenario } from "./scripted/scenario.js";
import { collect, collectFrom, readFileTool, reasoningOf, simpleRequest, textOf, toolCallsOf } from "./test-support/chunks.js";

const scripted = useScriptedServer();

async function providerFor(scenario: Scenario, options: Partial<OpenAiProviderOptions> = {}) {
  const server = await scripted.start(scenario);
  return new OpenAiProvider({ apiKey: "sk-test-secret", model: modelInfo("gpt-5.4"), baseUrl: `${server.url}/v1`, ...options });
}

function errorOf(value: unknown): ProviderError {
  expect(value).toBeInstanceOf(ProviderError);
  return value as ProviderError;
}

describe("OpenAiProvider through the SDK and the scripted server", () => {
  it("streams text and reasoning_content split at every character", async () => {
    const provider = await providerFor({ turns: [{ reasoning: "Think: ü", text: "Hello 🌍!", chunkSize: 1 }] });
    const { chunks, error } = await collectFrom(provider);
    expect(error).toBeUndefined();
    expect(reasoningOf(chunks)).toBe("Think: ü");
    expect(textOf(chunks)).toBe("Hello 🌍!");
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "end_turn" });
  });

  it("streams several tool calls with arguments split at awkward points", async () => {
    const content = 'a "quoted" \\ line\nnext';
    const provider = await providerFor({
      turns: [
        {
          toolCalls: [
            { id: "call_a", name: "read_file", arguments: { path: "src/a.ts" } },
            { id: "call_b", name: "write_to_file", arguments: { path: "b.txt", content } },
            { id: "call_c", name: "list_files", arguments: {} },
          ],
          chunkSize: 2,
        },
      ],
    });
    const { chunks, error } = await collectFrom(provider, simpleRequest(undefined, { tools: [readFileTool] }));
    expect(error).toBeUndefined();
    expect(toolCallsOf(chunks)).toEqual([
      { id: "call_a", name: "read_file", arguments: '{"path":"src/a.ts"}' },
      { id: "call_b", name: "write_to_file", arguments: JSON.stringify({ path: "b.txt", content }) },
      { id: "call_c", name: "list_files", arguments: "{}" },
    ]);
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "tool_use" });
    expect(scripted.server!.requests[0]!.body).toMatchObject({
      tools: [{ type: "function", function: { name: "read_file", parameters: { type: "object" } } }],
    });
  });

  it("asks for usage and prices it, cached tokens apart", async () => {
    const provider = await providerFor({ turns: [{ text: "ok", usage: { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 4000 } }] });
    const { chunks } = await collectFrom(provider);
    const usage = chunks.find((chunk) => chunk.type === "usage");
    expect(usage).toMatchObject({ inputTokens: 1000, outputTokens: 100, cacheReadTokens: 4000 });
    // gpt-5.4: $2.50 in, $15 out, $0.25 cached per million tokens
    expect((usage as { cost: number }).cost).toBeCloseTo((1000 * 2.5 + 100 * 15 + 4000 * 0.25) / 1e6, 10);
    expect(scripted.server!.requests[0]!.body).toMatchObject({ model: "gpt-5.4", stream: true, stream_options: { include_usage: true } });
  });

  it("follows the compatibility flags: no stream_options, max_tokens, reasoning sent back", async () => {
    const provider = await providerFor({ turns: [{ text: "ok" }] }, { compatibility: { includeUsage: false, reasoningHistory: "reasoning_content" }, maxTokens: 500 });
    const { chunks } = await collectFrom(
      provider,
      simpleRequest(undefined, {
        messages: [
          { role: "user", content: [{ type: "text", text: "a" }] },
          {
            role: "assistant",
            content: [
              { type: "reasoning", text: "why" },
              { type: "text", text: "b" },
            ],
          },
          { role: "user", content: [{ type: "text", text: "c" }] },
        ],
      }),
    );
    expect(chunks.some((chunk) => chunk.type === "usage")).toBe(false);
    const body = scripted.server!.requests[0]!.body as Record<string, unknown>;
    expect(body).not.toHaveProperty("stream_options");
    expect(body).toMatchObject({ max_tokens: 500, messages: [{ role: "system" }, { role: "user" }, { role: "assistant", reasoning_content: "why" }, { role: "user" }] });
    expect(compatibilityFor(undefined).maxTokensField).toBe("max_completion_tokens");
    expect(compatibilityFor("https://api.deepseek.com/v1").reasoningHistory).toBe("reasoning_content");
  });

  it.each([
    [{ status: 429, headers: { "retry-after-ms": "1500" } }, "rate_limit", true],
    [{ status: 503 }, "server", true],
    [{ status: 401 }, "auth", false],
    [{ status: 400, body: { error: { message: "This model's maximum context length is 400000 tokens.", type: "invalid_request_error", param: "messages", code: "context_length_exceeded" } } }, "context_window", false],
    [{ status: 404 }, "bad_request", false],
  ])("T11: turns HTTP error %o into kind %s", async (httpError, kind, retryable) => {
    const provider = await providerFor({ turns: [{ error: httpError }] });
    const error = errorOf((await collectFrom(provider)).error);
    expect(error).toMatchObject({ kind, status: httpError.status, retryable });
    if (kind === "rate_limit") expect(error.retryAfterMs).toBe(1500);
    if (kind === "auth") {
      expect(error.message).toContain("OPENAI_API_KEY");
      expect(error.message).not.toContain("sk-test-secret");
    }
  });

  it("turns an error inside the stream into a typed error", async () => {
    const provider = await providerFor({ turns: [{ text: "abcdef", chunkSize: 2, streamError: { type: "server_error", message: "The server had an error", afterChunks: 2 } }] });
    const { chunks, error } = await collectFrom(provider);
    expect(textOf(chunks)).toBe("ab");
    expect(errorOf(error)).toMatchObject({ kind: "server", retryable: true });
  });

  it("fails as stalled before the first chunk and between chunks", async () => {
    const provider = await providerFor({ turns: [{ stallAfterChunks: 0 }, { text: "abcdef", chunkSize: 1, stallAfterChunks: 3 }] }, { stall: { firstChunkMs: 300, betweenChunksMs: 300 } });
    expect(errorOf((await collectFrom(provider)).error)).toMatchObject({ kind: "stalled" });
    const patient = new OpenAiProvider({ model: modelInfo("gpt-5.4"), baseUrl: `${scripted.server!.url}/v1`, stall: { firstChunkMs: 5000, betweenChunksMs: 1000 } });
    const second = await collectFrom(patient);
    expect(textOf(second.chunks)).toBe("ab");
    expect(errorOf(second.error).message).toContain("after 3 chunks");
    await scripted.server!.waitForClientClose(1);
  });

  it("fails as network when the connection drops mid-stream", async () => {
    const provider = await providerFor({ turns: [{ text: "abcdef", chunkSize: 1, dropAfterChunks: 4 }] });
    const { chunks, error } = await collectFrom(provider);
    expect(textOf(chunks)).toBe("abc");
    expect(errorOf(error)).toMatchObject({ kind: "network", retryable: true });
  });

  it("closes the socket at once when aborted mid-stream", async () => {
    const provider = await providerFor({ turns: [{ text: "a".repeat(200), chunkSize: 1, delayMs: 5 }] });
    const controller = new AbortController();
    const consumed = collect(provider.createMessage(simpleRequest(controller.signal)));
    await scripted.server!.waitForChunks(0, 10);
    controller.abort();
    expect(errorOf((await consumed).error).kind).toBe("aborted");
    await scripted.server!.waitForClientClose(0);
    expect(scripted.server!.progress(0).completed).toBe(false);
  });

  it("closes the socket when the consumer stops reading early", async () => {
    const provider = await providerFor({ turns: [{ text: "a".repeat(200), chunkSize: 1, delayMs: 5 }] });
    for await (const chunk of provider.createMessage(simpleRequest())) {
      if (chunk.type === "text") break;
    }
    await scripted.server!.waitForClientClose(0);
    expect(scripted.server!.progress(0).completed).toBe(false);
  });
});
