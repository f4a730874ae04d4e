import { randomBytes } from "node:crypto";
import type { ScenarioTurn } from "./scenario.js";
import { splitText, toolArgumentsText } from "./scenario.js";

export interface ResponsesFramesOptions {
  model: string;
  chunkSize: number;
  /** The request asked for `include: ["reasoning.encrypted_content"]`. */
  includeEncryptedReasoning: boolean;
}

/** Stop reasons a scenario may name for an answer cut by the output limit. */
const cutReasons = new Set(["max_tokens", "max_output_tokens", "length"]);

function itemId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString("hex")}`;
}

/**
 * The SSE frames of one streamed Responses API answer, as OpenAI sends them. Built from the
 * `openai` SDK's own types (ResponseStreamEvent in openai 6.49.0, resources/responses) and the
 * API reference's streaming events, since the real service cannot be reached here:
 * response.created and .in_progress; per output item `response.output_item.added`, its deltas
 * (reasoning_summary_text, output_text, function_call_arguments) and their `.done` events, then
 * `response.output_item.done`; finally `response.completed`, or `response.incomplete` with
 * `incomplete_details.reason: "max_output_tokens"` when the scenario's stop reason is a cut.
 */
export function responsesFrames(turn: ScenarioTurn, options: ResponsesFramesOptions): string[] {
  const frames: string[] = [];
  let sequence = 0;
  const send = (type: string, fields: Record<string, unknown>): void => {
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...fields })}\n\n`);
    sequence += 1;
  };
  const responseId = itemId("resp");
  const createdAt = Math.floor(Date.now() / 1000);
  const output: Array<Record<string, unknown>> = [];
  const response = (status: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    id: responseId,
    object: "response",
    created_at: createdAt,
    status,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: options.model,
    output: status === "in_progress" ? [] : output,
    parallel_tool_calls: true,
    store: false,
    temperature: 1,
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    usage: null,
    ...extra,
  });
  send("response.created", { response: response("in_progress") });
  send("response.in_progress", { response: response("in_progress") });

  if (turn.reasoning !== undefined) {
    const outputIndex = output.length;
    const id = itemId("rs");
    send("response.output_item.added", { output_index: outputIndex, item: { id, type: "reasoning", summary: [] } });
    send("response.reasoning_summary_part.added", { item_id: id, output_index: outputIndex, summary_index: 0, part: { type: "summary_text", text: "" } });
    for (const piece of splitText(turn.reasoning, options.chunkSize)) {
      send("response.reasoning_summary_text.delta", { item_id: id, output_index: outputIndex, summary_index: 0, delta: piece });
    }
    send("response.reasoning_summary_text.done", { item_id: id, output_index: outputIndex, summary_index: 0, text: turn.reasoning });
    const part = { type: "summary_text", text: turn.reasoning };
    send("response.reasoning_summary_part.done", { item_id: id, output_index: outputIndex, summary_index: 0, part });
    const encrypted = options.includeEncryptedReasoning ? { encrypted_content: turn.reasoningSignature ?? `gAAAAA${randomBytes(24).toString("base64")}` } : {};
    const item = { id, type: "reasoning", summary: [part], ...encrypted };
    send("response.output_item.done", { output_index: outputIndex, item });
    output.push(item);
  }

  if (turn.text !== undefined && turn.text !== "") {
    const outputIndex = output.length;
    const id = itemId("msg");
    const emptyPart = { type: "output_text", annotations: [], logprobs: [], text: "" };
    send("response.output_item.added", { output_index: outputIndex, item: { id, type: "message", status: "in_progress", content: [], role: "assistant" } });
    send("response.content_part.added", { item_id: id, output_index: outputIndex, content_index: 0, part: emptyPart });
    for (const piece of splitText(turn.text, options.chunkSize)) {
      send("response.output_text.delta", { item_id: id, output_index: outputIndex, content_index: 0, delta: piece, logprobs: [] });
    }
    send("response.output_text.done", { item_id: id, output_index: outputIndex, content_index: 0, text: turn.text, logprobs: [] });
    const part = { ...emptyPart, text: turn.text };
    send("response.content_part.done", { item_id: id, output_index: outputIndex, content_index: 0, part });
    const item = { id, type: "message", status: "completed", content: [part], role: "assistant" };
    send("response.output_item.done", { output_index: outputIndex, item });
    output.push(item);
  }

  for (const call of turn.toolCalls ?? []) {
    const outputIndex = output.length;
    const id = itemId("fc");
    const callId = call.id ?? `call_${randomBytes(12).toString("base64url")}`;
    const argumentsText = toolArgumentsText(call);
    send("response.output_item.added", {
      output_index: outputIndex,
      item: { id, type: "function_call", status: "in_progress", arguments: "", call_id: callId, name: call.name },
    });
    for (const piece of splitText(argumentsText, options.chunkSize)) {
      send("response.function_call_arguments.delta", { item_id: id, output_index: outputIndex, delta: piece });
    }
    send("response.function_call_arguments.done", { item_id: id, output_index: outputIndex, name: call.name, arguments: argumentsText });
    const item = { id, type: "function_call", status: "completed", arguments: argumentsText, call_id: callId, name: call.name };
    send("response.output_item.done", { output_index: outputIndex, item });
    output.push(item);
  }

  const usage = turn.usage ?? { inputTokens: 10, outputTokens: 10 };
  const cached = usage.cacheReadTokens ?? 0;
  const reasoningTokens = usage.reasoningTokens ?? 0;
  const usageField = {
    input_tokens: usage.inputTokens + cached,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: usage.inputTokens + cached + usage.outputTokens,
  };
  if (turn.stopReason !== undefined && cutReasons.has(turn.stopReason)) {
    send("response.incomplete", {
      response: response("incomplete", { incomplete_details: { reason: "max_output_tokens" }, usage: usageField }),
    });
  } else {
    send("response.completed", { response: response("completed", { usage: usageField }) });
  }
  return frames;
}

/** An error event inside the stream, as the Responses API sends it (e.g. when overloaded mid-answer). */
export function responsesStreamError(code: string, message: string): string {
  return `event: error\ndata: ${JSON.stringify({ type: "error", code, message, param: null, sequence_number: 0 })}\n\n`;
}
