import { randomBytes } from "node:crypto";
import type { ScenarioTurn } from "./scenario.js";
import { splitText, toolArgumentsText } from "./scenario.js";

/** One SSE event as the Anthropic Messages API writes it. */
function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

function randomId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString("base64url")}`;
}

export interface AnthropicFramesOptions {
  model: string;
  chunkSize: number;
}

/**
 * The SSE events of one streamed Messages answer, in the order the real API sends them:
 * message_start, a ping, one start/delta.../stop run per content block, message_delta with
 * the stop reason and output usage, message_stop.
 */
export function anthropicFrames(turn: ScenarioTurn, options: AnthropicFramesOptions): string[] {
  const frames: string[] = [];
  const usage = turn.usage ?? { inputTokens: 10, outputTokens: 10 };
  frames.push(
    event("message_start", {
      type: "message_start",
      message: {
        id: randomId("msg_"),
        type: "message",
        role: "assistant",
        model: options.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.inputTokens,
          cache_creation_input_tokens: usage.cacheWriteTokens ?? 0,
          cache_read_input_tokens: usage.cacheReadTokens ?? 0,
          output_tokens: 1,
        },
      },
    }),
  );
  frames.push(event("ping", { type: "ping" }));
  let index = 0;
  for (const data of turn.redactedReasoning ?? []) {
    frames.push(event("content_block_start", { type: "content_block_start", index, content_block: { type: "redacted_thinking", data } }), event("content_block_stop", { type: "content_block_stop", index }));
    index += 1;
  }
  if (turn.reasoning !== undefined) {
    frames.push(
      event("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      }),
    );
    for (const piece of splitText(turn.reasoning, options.chunkSize)) {
      frames.push(event("content_block_delta", { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: piece } }));
    }
    const signature = turn.reasoningSignature ?? randomBytes(48).toString("base64");
    frames.push(event("content_block_delta", { type: "content_block_delta", index, delta: { type: "signature_delta", signature } }), event("content_block_stop", { type: "content_block_stop", index }));
    index += 1;
  }
  if (turn.text !== undefined && turn.text !== "") {
    frames.push(event("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }));
    for (const piece of splitText(turn.text, options.chunkSize)) {
      frames.push(event("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } }));
    }
    frames.push(event("content_block_stop", { type: "content_block_stop", index }));
    index += 1;
  }
  for (const call of turn.toolCalls ?? []) {
    frames.push(
      event("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: call.id ?? randomId("toolu_"), name: call.name, input: {} },
      }),
      event("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: "" } }),
    );
    for (const piece of splitText(toolArgumentsText(call), options.chunkSize)) {
      frames.push(event("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } }));
    }
    frames.push(event("content_block_stop", { type: "content_block_stop", index }));
    index += 1;
  }
  const stopReason = turn.stopReason ?? ((turn.toolCalls ?? []).length > 0 ? "tool_use" : "end_turn");
  frames.push(
    event("message_delta", {
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.outputTokens },
    }),
    event("message_stop", { type: "message_stop" }),
  );
  return frames;
}

export function anthropicStreamError(type: string, message: string): string {
  return event("error", { type: "error", error: { type, message } });
}

const anthropicErrorTypes: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

export function anthropicErrorBody(status: number, message: string): unknown {
  return { type: "error", error: { type: anthropicErrorTypes[status] ?? "api_error", message } };
}
