import { describe, expect, it } from "vitest";
import { useScriptedServer } from "./test-support/scripted-server-fixture.js";
import { ProviderError } from "./errors.js";
import type { GenerateContentResponse } from "@google/genai";
import { GeminiProvider, translateGeminiResponses } from "./gemini.js";
import { toGeminiContents } from "./gemini-contents.js";
import { modelInfo } from "./models.js";
import { tagSignature } from "./reasoning-signature.js";
import type { Scenario } from "./scripted/scenario.js";
import { collect, collectFrom, readFileTool, reasoningOf, simpleRequest, textOf, toolCallsOf } from "./test-support/chunks.js";
import type { Message } from "./types.js";

const scripted = useScriptedServer();

async function providerFor(scenario: Scenario) {
  const server = await scripted.start(scenario);
  return new GeminiProvider({ apiKey: "AIza-test-secret", model: modelInfo("gemini-2.5-pro"), baseUrl: server.url, stall: { firstChunkMs: 5000, betweenChunksMs: 300 } });
}

describe("GeminiProvider through @google/genai and the scripted Gemini stream", () => {
  it("streams thoughts as reasoning and text, keeping the thought signature", async () => {
    const provider = await providerFor({ turns: [{ reasoning: "Think: ü", reasoningSignature: "CiQBsig", text: "Hello 🌍!", chunkSize: 2 }] });
    const { chunks, error } = await collectFrom(provider);
    expect(error).toBeUndefined();
    expect(reasoningOf(chunks)).toBe("Think: ü");
    expect(textOf(chunks)).toBe("Hello 🌍!");
    expect(chunks).toContainEqual({ type: "reasoning", text: "", signature: "cairn:gemini:CiQBsig" });
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "end_turn" });
    expect(scripted.server!.requests[0]).toMatchObject({
      path: "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
      body: { systemInstruction: { parts: [{ text: "You are cairn." }] }, generationConfig: { thinkingConfig: { includeThoughts: true } } },
    });
  });

  it("streams two function calls in one answer with ids of cairn's own, and usage with thoughts as output", async () => {
    const provider = await providerFor({
      turns: [
        {
          toolCalls: [
            { name: "read_file", arguments: { path: "a" } },
            { name: "read_file", arguments: { path: "b" } },
          ],
          usage: { inputTokens: 100, cacheReadTokens: 50, outputTokens: 40, reasoningTokens: 25 },
        },
      ],
    });
    const { chunks, error } = await collectFrom(provider, simpleRequest(undefined, { tools: [readFileTool] }));
    expect(error).toBeUndefined();
    const calls = toolCallsOf(chunks);
    expect(calls.map((call) => [call.name, call.arguments])).toEqual([
      ["read_file", '{"path":"a"}'],
      ["read_file", '{"path":"b"}'],
    ]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    expect(chunks.find((chunk) => chunk.type === "usage")).toMatchObject({ inputTokens: 100, cacheReadTokens: 50, outputTokens: 40, reasoningTokens: 25 });
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "tool_use" });
    expect(scripted.server!.requests[0]!.body).toMatchObject({ tools: [{ functionDeclarations: [{ name: "read_file", parametersJsonSchema: { type: "object" } }] }] });
  });

  it("maps MAX_TOKENS to the stop reason max_tokens", async () => {
    const provider = await providerFor({ turns: [{ text: "cut", stopReason: "max_tokens" }] });
    const { chunks } = await collectFrom(provider);
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "max_tokens" });
  });

  it("maps a 429 with RetryInfo to rate_limit with its delay, a token-count 400 to context_window, a bad key to auth", async () => {
    const provider = await providerFor({
      turns: [
        { error: { status: 429, headers: { "retry-after": "2.5" } } },
        { error: { status: 400, body: { error: { code: 400, message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).", status: "INVALID_ARGUMENT" } } } },
        {
          error: {
            status: 400,
            body: {
              error: { code: 400, message: "API key not valid. Please pass a valid API key.", status: "INVALID_ARGUMENT", details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" }] },
            },
          },
        },
      ],
    });
    const limited = await collectFrom(provider);
    expect(limited.error).toMatchObject({ kind: "rate_limit", retryable: true, retryAfterMs: 2500, status: 429 });
    expect((limited.error as ProviderError).message).not.toContain("AIza-test-secret");
    const tooLong = await collectFrom(provider);
    expect(tooLong.error).toMatchObject({ kind: "context_window", retryable: false });
    const badKey = await collectFrom(provider);
    expect(badKey.error).toMatchObject({ kind: "auth" });
    expect((badKey.error as ProviderError).message).toMatch(/GEMINI_API_KEY/);
  });

  it("closes the socket at once when aborted mid-stream, and when the consumer stops reading, and notices a stall", async () => {
    const provider = await providerFor({
      turns: [
        { text: "a".repeat(200), chunkSize: 1, delayMs: 5 },
        { text: "a".repeat(200), chunkSize: 1, delayMs: 5 },
        { text: "a".repeat(50), chunkSize: 1, stallAfterChunks: 5 },
      ],
    });
    const controller = new AbortController();
    const consumed = collect(provider.createMessage(simpleRequest(controller.signal)));
    await scripted.server!.waitForChunks(0, 10);
    controller.abort();
    expect((await consumed).error).toMatchObject({ kind: "aborted" });
    await scripted.server!.waitForClientClose(0);
    expect(scripted.server!.progress(0).completed).toBe(false);

    for await (const chunk of provider.createMessage(simpleRequest())) {
      if (chunk.type === "text") break;
    }
    await scripted.server!.waitForClientClose(1);
    expect(scripted.server!.progress(1).completed).toBe(false);

    const stalled = await collectFrom(provider);
    expect(stalled.error).toMatchObject({ kind: "stalled", retryable: true });
  });

  it("maps an error inside the stream and a dropped connection to retryable errors", async () => {
    const provider = await providerFor({
      turns: [
        { text: "partial answer here", chunkSize: 3, streamError: { type: "overloaded_error", message: "The model is overloaded.", afterChunks: 2 } },
        { text: "a long answer that never ends", chunkSize: 2, dropAfterChunks: 4 },
      ],
    });
    const overloaded = await collectFrom(provider);
    expect(overloaded.error).toMatchObject({ kind: "overloaded", retryable: true });
    const dropped = await collectFrom(provider);
    expect(dropped.error).toBeInstanceOf(ProviderError);
    expect((dropped.error as ProviderError).retryable).toBe(true);
  });
});

describe("the history is sent as Gemini contents", () => {
  it("pairs function responses with calls by name and order and sends the thought signature back on the first call", () => {
    const history: Message[] = [
      { role: "user", content: [{ type: "text", text: "fix it" }] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "plan", signature: tagSignature("gemini", "CiQBsig") },
          { type: "text", text: "Reading." },
          { type: "tool_use", id: "g1", name: "read_file", input: { path: "a" } },
          { type: "tool_use", id: "g2", name: "list_files", input: { path: "." } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", toolUseId: "g2", content: "B" },
          { type: "tool_result", toolUseId: "g1", content: "A", isError: true },
        ],
      },
    ];
    const { contents, note } = toGeminiContents(history);
    expect(note).toBeUndefined();
    expect(contents).toEqual([
      { role: "user", parts: [{ text: "fix it" }] },
      {
        role: "model",
        parts: [{ text: "Reading." }, { functionCall: { name: "read_file", args: { path: "a" } }, thoughtSignature: "CiQBsig" }, { functionCall: { name: "list_files", args: { path: "." } } }],
      },
      {
        role: "user",
        parts: [{ functionResponse: { name: "read_file", response: { error: "A" } } }, { functionResponse: { name: "list_files", response: { output: "B" } } }],
      },
    ]);
  });

  it("leaves out reasoning signed by another API, with a note", () => {
    const { contents, note } = toGeminiContents([
      { role: "user", content: [{ type: "text", text: "go" }] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "t", signature: "EqQBanthropic" },
          { type: "text", text: "ok" },
        ],
      },
    ]);
    expect(JSON.stringify(contents)).not.toContain("EqQBanthropic");
    expect(note).toMatch(/1 reasoning block\(s\) from anthropic left out of the request: the Gemini API/);
  });
});

describe("images are sent as Gemini inline data", () => {
  it("sends user images and tool-result images as inlineData", () => {
    const { contents } = toGeminiContents([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", mediaType: "image/png", data: "iVBORw0" },
        ],
      },
      { role: "assistant", content: [{ type: "tool_use", id: "g1", name: "browser_action", input: { action: "screenshot" } }] },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            toolUseId: "g1",
            content: [
              { type: "text", text: "shot" },
              { type: "image", mediaType: "image/jpeg", data: "/9j/4AA" },
            ],
          },
        ],
      },
    ]);
    expect(contents[0]).toEqual({ role: "user", parts: [{ text: "look" }, { inlineData: { mimeType: "image/png", data: "iVBORw0" } }] });
    expect(contents[2]).toEqual({
      role: "user",
      parts: [{ functionResponse: { name: "browser_action", response: { output: "shot" } } }, { inlineData: { mimeType: "image/jpeg", data: "/9j/4AA" } }],
    });
  });
});

describe("Gemini responses outside the scripted server's repertoire (fixtures built from @google/genai's GenerateContentResponse type)", () => {
  it("a blocked prompt is a bad request, not a retried network error", async () => {
    async function* responses(): AsyncGenerator<GenerateContentResponse> {
      yield { promptFeedback: { blockReason: "PROHIBITED_CONTENT" } } as GenerateContentResponse;
    }
    const failure = await translateGeminiResponses(responses(), modelInfo("gemini-2.5-pro"), { providerName: "gemini" })
      .next()
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: "bad_request", retryable: false });
    expect((failure as ProviderError).message).toMatch(/prompt was blocked \(PROHIBITED_CONTENT\)/);
  });
});
