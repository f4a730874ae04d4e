import { describe, expect, it } from "vitest";
import { useScriptedServer } from "./test-support/scripted-server-fixture.js";
import { toAnthropicMessages } from "./anthropic-messages.js";
import type OpenAI from "openai";
import { ProviderError, toProviderError } from "./errors.js";
import { modelInfo } from "./models.js";
import { OpenAiResponsesProvider, translateResponsesEvents } from "./openai-responses.js";
import type { OpenAiResponsesProviderOptions } from "./openai-responses.js";
import { toResponsesInput } from "./openai-responses-input.js";
import { tagSignature } from "./reasoning-signature.js";
import type { Scenario } from "./scripted/scenario.js";
import { collect, collectFrom, readFileTool, reasoningOf, simpleRequest, textOf, toolCallsOf } from "./test-support/chunks.js";
import type { Chunk, Message } from "./types.js";

const scripted = useScriptedServer();

async function providerFor(scenario: Scenario, options: Partial<OpenAiResponsesProviderOptions> = {}) {
  const server = await scripted.start(scenario);
  return new OpenAiResponsesProvider({ apiKey: "sk-test-secret", model: modelInfo("gpt-5.4"), baseUrl: `${server.url}/v1`, stall: { firstChunkMs: 5000, betweenChunksMs: 300 }, ...options });
}

describe("OpenAiResponsesProvider through the openai SDK and the scripted Responses stream", () => {
  it("streams reasoning summaries as reasoning, text, and closes the reasoning with the encrypted item", async () => {
    const provider = await providerFor({ turns: [{ reasoning: "Think: ü", reasoningSignature: "gAAAA-secret-blob", text: "Hello 🌍!", chunkSize: 1 }] });
    const { chunks, error } = await collectFrom(provider);
    expect(error).toBeUndefined();
    expect(reasoningOf(chunks)).toBe("Think: ü");
    expect(textOf(chunks)).toBe("Hello 🌍!");
    const signed = chunks.find((chunk) => chunk.type === "reasoning" && chunk.signature !== undefined);
    expect(signed?.type === "reasoning" ? signed.signature : "").toMatch(/^cairn:openai-responses:.*gAAAA-secret-blob/);
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "end_turn" });
    expect(scripted.server!.requests[0]).toMatchObject({
      path: "/v1/responses",
      body: { store: false, stream: true, include: ["reasoning.encrypted_content"], reasoning: { summary: "auto" }, instructions: "You are cairn." },
    });
  });

  it("streams two function calls in one answer, paired by call_id, with stop tool_use", async () => {
    const provider = await providerFor({
      turns: [
        {
          toolCalls: [
            { id: "call_a", name: "read_file", arguments: { path: "src/a.ts" } },
            { id: "call_b", name: "list_files", arguments: { path: "." } },
          ],
          chunkSize: 3,
        },
      ],
    });
    const { chunks, error } = await collectFrom(provider, simpleRequest(undefined, { tools: [readFileTool] }));
    expect(error).toBeUndefined();
    expect(toolCallsOf(chunks)).toEqual([
      { id: "call_a", name: "read_file", arguments: '{"path":"src/a.ts"}' },
      { id: "call_b", name: "list_files", arguments: '{"path":"."}' },
    ]);
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "tool_use" });
    expect(scripted.server!.requests[0]!.body).toMatchObject({ tools: [{ type: "function", name: "read_file", strict: false, parameters: { type: "object" } }] });
  });

  it("counts input, cached, output and reasoning tokens", async () => {
    const provider = await providerFor({ turns: [{ text: "ok", usage: { inputTokens: 100, cacheReadTokens: 400, outputTokens: 50, reasoningTokens: 30 } }] });
    const { chunks } = await collectFrom(provider);
    const usage = chunks.find((chunk) => chunk.type === "usage");
    expect(usage).toMatchObject({ inputTokens: 100, cacheReadTokens: 400, outputTokens: 50, reasoningTokens: 30 });
    // gpt-5.4: 2.5 input, 0.25 cached, 15 output per million.
    expect(usage?.type === "usage" ? usage.cost : 0).toBeCloseTo((100 * 2.5 + 400 * 0.25 + 50 * 15) / 1e6, 10);
  });

  it("maps response.incomplete (max_output_tokens) to the stop reason max_tokens", async () => {
    const provider = await providerFor({ turns: [{ text: "cut", stopReason: "max_output_tokens" }] });
    const { chunks } = await collectFrom(provider);
    expect(chunks.at(-1)).toEqual({ type: "stop", reason: "max_tokens" });
  });

  it("maps a 429 with retry-after to a retryable rate_limit error, without the key in the message", async () => {
    const provider = await providerFor({ turns: [{ error: { status: 429, headers: { "retry-after": "3" } } }] });
    const { error } = await collectFrom(provider);
    expect(error).toBeInstanceOf(ProviderError);
    const failure = error as ProviderError;
    expect(failure).toMatchObject({ kind: "rate_limit", retryable: true, retryAfterMs: 3000, status: 429 });
    expect(failure.message).not.toContain("sk-test-secret");
  });

  it("maps a context-length 400 to context_window and a stream error event to a ProviderError", async () => {
    const provider = await providerFor({
      turns: [
        { error: { status: 400, body: { error: { message: "Your input exceeds the context window of this model.", type: "invalid_request_error", param: "input", code: "context_length_exceeded" } } } },
        { text: "partial answer", streamError: { type: "server_error", message: "overloaded mid-answer", afterChunks: 4 } },
      ],
    });
    const first = await collectFrom(provider);
    expect(first.error).toMatchObject({ kind: "context_window", retryable: false });
    const second = await collectFrom(provider);
    expect(second.error).toBeInstanceOf(ProviderError);
    expect((second.error as ProviderError).message).toMatch(/overloaded mid-answer/);
    expect((second.error as ProviderError).retryable).toBe(true);
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

  it("reports a dropped connection mid-stream as a retryable network error", async () => {
    const provider = await providerFor({ turns: [{ text: "a long answer that never ends", chunkSize: 2, dropAfterChunks: 6 }] });
    const { error } = await collectFrom(provider);
    expect(error).toMatchObject({ kind: "network", retryable: true });
  });
});

describe("the history is sent as Responses input items", () => {
  const encrypted = tagSignature("openai-responses", JSON.stringify({ id: "rs_1", summary: ["plan"], encrypted_content: "gAAAA-blob" }));
  const history: Message[] = [
    { role: "user", content: [{ type: "text", text: "fix it" }] },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "plan", signature: encrypted },
        { type: "text", text: "Reading two files." },
        { type: "tool_use", id: "call_a", name: "read_file", input: { path: "a" } },
        { type: "tool_use", id: "call_b", name: "read_file", input: { path: "b" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", toolUseId: "call_b", content: "B" },
        { type: "tool_result", toolUseId: "call_a", content: "A" },
        { type: "text", text: "go on" },
      ],
    },
  ];

  it("sends the encrypted reasoning item back whole and pairs outputs with calls by call_id", () => {
    const { input, note } = toResponsesInput(history);
    expect(note).toBeUndefined();
    expect(input).toEqual([
      { role: "user", content: [{ type: "input_text", text: "fix it" }] },
      { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "plan" }], encrypted_content: "gAAAA-blob" },
      { role: "assistant", content: "Reading two files." },
      { type: "function_call", call_id: "call_a", name: "read_file", arguments: '{"path":"a"}' },
      { type: "function_call", call_id: "call_b", name: "read_file", arguments: '{"path":"b"}' },
      { type: "function_call_output", call_id: "call_a", output: "A" },
      { type: "function_call_output", call_id: "call_b", output: "B" },
      { role: "user", content: [{ type: "input_text", text: "go on" }] },
    ]);
  });

  it("leaves encrypted reasoning out for a model without reasoning (a switch from gpt-5.4 to gpt-4.1)", () => {
    const { input } = toResponsesInput(history, { keepReasoning: false });
    expect(input.some((item) => "type" in item && item.type === "reasoning")).toBe(false);
    expect(input.filter((item) => "type" in item && item.type === "function_call")).toHaveLength(2);
  });

  it("drops Anthropic-signed thinking with a note, and Anthropic drops the Responses item (resume on another provider)", () => {
    const anthropicHistory: Message[] = [
      history[0]!,
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "thought", signature: "EqQBCkYIBxgCKkA" },
          { type: "text", text: "done" },
        ],
      },
      { role: "user", content: [{ type: "text", text: "more" }] },
    ];
    const converted = toResponsesInput(anthropicHistory);
    expect(converted.input.some((item) => "type" in item && item.type === "reasoning")).toBe(false);
    expect(converted.note).toMatch(/1 reasoning block\(s\) from anthropic left out/);
    const backToAnthropic = toAnthropicMessages(history);
    expect(JSON.stringify(backToAnthropic)).not.toContain("gAAAA-blob");
    expect(JSON.stringify(backToAnthropic)).toContain('"tool_use_id":"call_a"');
  });
});

describe("images are sent as Responses input images", () => {
  it("sends user images and tool-result images as input_image data URLs", () => {
    const { input } = toResponsesInput([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", mediaType: "image/png", data: "iVBORw0" },
        ],
      },
      { role: "assistant", content: [{ type: "tool_use", id: "call_s", name: "browser_action", input: { action: "screenshot" } }] },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            toolUseId: "call_s",
            content: [
              { type: "text", text: "shot" },
              { type: "image", mediaType: "image/jpeg", data: "/9j/4AA" },
            ],
          },
        ],
      },
    ]);
    expect(input[0]).toEqual({
      role: "user",
      content: [
        { type: "input_text", text: "look" },
        { type: "input_image", detail: "auto", image_url: "data:image/png;base64,iVBORw0" },
      ],
    });
    expect(input[2]).toEqual({
      type: "function_call_output",
      call_id: "call_s",
      output: [
        { type: "input_text", text: "shot" },
        { type: "input_image", detail: "auto", image_url: "data:image/jpeg;base64,/9j/4AA" },
      ],
    });
  });
});

describe("Responses API events outside the scripted server's repertoire (fixtures built from the openai SDK's ResponseStreamEvent types)", () => {
  async function* events(list: unknown[]): AsyncGenerator<OpenAI.Responses.ResponseStreamEvent> {
    for (const event of list) yield event as OpenAI.Responses.ResponseStreamEvent;
  }
  const usage = { input_tokens: 5, input_tokens_details: { cached_tokens: 0 }, output_tokens: 3, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 8 };

  it("shows a refusal as text, and reads a failed response as an error", async () => {
    const chunks: Chunk[] = [];
    for await (const chunk of translateResponsesEvents(
      events([
        { type: "response.refusal.delta", delta: "I can't help with that.", item_id: "msg_1", output_index: 0, content_index: 0, sequence_number: 1 },
        { type: "response.completed", sequence_number: 2, response: { usage, incomplete_details: null } },
      ]),
      modelInfo("gpt-5.4"),
      { providerName: "openai-responses" },
    )) {
      chunks.push(chunk);
    }
    expect(chunks[0]).toEqual({ type: "text", text: "I can't help with that." });
    const failing = translateResponsesEvents(events([{ type: "response.failed", sequence_number: 1, response: { error: { code: "rate_limit_exceeded", message: "slow down" } } }]), modelInfo("gpt-5.4"), {
      providerName: "openai-responses",
    });
    const failure = await failing.next().catch((error: unknown) => error);
    expect(toProviderError(failure, { providerName: "openai-responses" })).toMatchObject({ kind: "rate_limit", retryable: true });
  });
});
