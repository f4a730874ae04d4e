import { randomBytes } from "node:crypto";
import type { ScenarioTurn } from "./scenario.js";
import { splitText, toolArgumentsText } from "./scenario.js";

export interface OpenAiFramesOptions {
  model: string;
  chunkSize: number;
  /** The request asked for `stream_options.include_usage`. */
  includeUsage: boolean;
}

/**
 * The `data:` lines of one streamed Chat Completions answer as OpenAI writes them: a role chunk,
 * content / reasoning_content / tool_calls deltas, a finish_reason chunk, the usage chunk (when
 * asked for, with empty choices) and `[DONE]`.
 */
export function openAiFrames(turn: ScenarioTurn, options: OpenAiFramesOptions): string[] {
  const id = `chatcmpl-${randomBytes(12).toString("base64url")}`;
  const created = Math.floor(Date.now() / 1000);
  const usageField = options.includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
    `data: ${JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created,
      model: options.model,
      system_fingerprint: "fp_cairn_scripted",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...usageField,
    })}\n\n`;

  const frames: string[] = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const piece of splitText(turn.reasoning ?? "", options.chunkSize)) {
    frames.push(chunk({ reasoning_content: piece }));
  }
  for (const piece of splitText(turn.text ?? "", options.chunkSize)) {
    frames.push(chunk({ content: piece }));
  }
  (turn.toolCalls ?? []).forEach((call, index) => {
    const callId = call.id ?? `call_${randomBytes(12).toString("base64url")}`;
    frames.push(
      chunk({
        tool_calls: [{ index, id: callId, type: "function", function: { name: call.name, arguments: "" } }],
      }),
    );
    for (const piece of splitText(toolArgumentsText(call), options.chunkSize)) {
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  const finishReason = turn.stopReason ?? ((turn.toolCalls ?? []).length > 0 ? "tool_calls" : "stop");
  frames.push(chunk({}, finishReason));
  if (options.includeUsage) {
    const usage = turn.usage ?? { inputTokens: 10, outputTokens: 10 };
    const cached = usage.cacheReadTokens ?? 0;
    const promptTokens = usage.inputTokens + cached;
    frames.push(
      `data: ${JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created,
        model: options.model,
        system_fingerprint: "fp_cairn_scripted",
        choices: [],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: usage.outputTokens,
          total_tokens: promptTokens + usage.outputTokens,
          prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
        },
      })}\n\n`,
    );
  }
  frames.push("data: [DONE]\n\n");
  return frames;
}

export function openAiStreamError(type: string, message: string): string {
  return `data: ${JSON.stringify({ error: { message, type, param: null, code: type } })}\n\n`;
}

const openAiErrorTypes: Record<number, { type: string; code: string | null }> = {
  400: { type: "invalid_request_error", code: null },
  401: { type: "invalid_request_error", code: "invalid_api_key" },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory" },
  404: { type: "invalid_request_error", code: "model_not_found" },
  429: { type: "requests", code: "rate_limit_exceeded" },
  500: { type: "server_error", code: null },
  503: { type: "server_error", code: null },
};

export function openAiErrorBody(status: number, message: string): unknown {
  const known = openAiErrorTypes[status] ?? { type: "server_error", code: null };
  return { error: { message, type: known.type, param: null, code: known.code } };
}
