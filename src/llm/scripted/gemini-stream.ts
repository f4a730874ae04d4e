import { randomBytes } from "node:crypto";
import type { ScenarioTurn } from "./scenario.js";
import { splitText } from "./scenario.js";

export interface GeminiFramesOptions {
  model: string;
  chunkSize: number;
}

const cutReasons = new Set(["max_tokens", "max_output_tokens", "length", "MAX_TOKENS"]);

/**
 * The SSE frames of `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`, as Gemini
 * sends them. Built from @google/genai 2.32.0's own types (GenerateContentResponse, Part with
 * `thought` and `thoughtSignature`, FunctionCall, UsageMetadata, FinishReason) and Google's API
 * reference, since the real service cannot be reached here: each frame is a whole
 * GenerateContentResponse (`data: {...}` and a blank line); thought summaries come first as
 * parts with `thought: true`; the thought signature rides on the first function call, or on the
 * last text part when there are none; function calls arrive whole; the last frame carries the
 * finishReason and the usage.
 */
export function geminiFrames(turn: ScenarioTurn, options: GeminiFramesOptions): string[] {
  const responseId = randomBytes(12).toString("base64url");
  const frame = (parts: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}, finishReason?: string): string =>
    `data: ${JSON.stringify({
      candidates: [{ content: { parts, role: "model" }, index: 0, ...(finishReason === undefined ? {} : { finishReason }) }],
      modelVersion: options.model,
      responseId,
      ...extra,
    })}\r\n\r\n`;
  const frames: string[] = [];
  const signature = turn.reasoning === undefined ? undefined : (turn.reasoningSignature ?? `CiQB${randomBytes(24).toString("base64")}`);
  for (const piece of splitText(turn.reasoning ?? "", options.chunkSize)) frames.push(frame([{ text: piece, thought: true }]));
  const calls = turn.toolCalls ?? [];
  const textPieces = splitText(turn.text ?? "", options.chunkSize);
  textPieces.forEach((piece, position) => {
    const last = position === textPieces.length - 1;
    frames.push(frame([{ text: piece, ...(last && calls.length === 0 && signature !== undefined ? { thoughtSignature: signature } : {}) }]));
  });
  const callParts: Array<Record<string, unknown>> = calls.map((call, position) => ({
    functionCall: { name: call.name, args: typeof call.arguments === "string" ? { raw: call.arguments } : call.arguments },
    ...(position === 0 && signature !== undefined ? { thoughtSignature: signature } : {}),
  }));
  if (textPieces.length === 0 && calls.length === 0 && signature !== undefined) callParts.push({ text: "", thoughtSignature: signature });
  const usage = turn.usage ?? { inputTokens: 10, outputTokens: 10 };
  const cached = usage.cacheReadTokens ?? 0;
  const thoughts = usage.reasoningTokens ?? 0;
  const usageMetadata = {
    promptTokenCount: usage.inputTokens + cached,
    candidatesTokenCount: usage.outputTokens - thoughts,
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
    totalTokenCount: usage.inputTokens + cached + usage.outputTokens,
  };
  const finishReason = turn.stopReason === undefined ? "STOP" : cutReasons.has(turn.stopReason) ? "MAX_TOKENS" : turn.stopReason;
  frames.push(frame(callParts, { usageMetadata }, finishReason));
  return frames;
}

const streamErrorCodes: Record<string, { code: number; status: string }> = {
  overloaded_error: { code: 503, status: "UNAVAILABLE" },
  rate_limit_error: { code: 429, status: "RESOURCE_EXHAUSTED" },
};

/** An error inside the stream, as Gemini sends it (the SDK throws it as an ApiError). */
export function geminiStreamError(type: string, message: string): string {
  const known = streamErrorCodes[type] ?? { code: 500, status: "INTERNAL" };
  return `data: ${JSON.stringify({ error: { code: known.code, message, status: known.status } })}\r\n\r\n`;
}

const statusNames: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

/** Gemini's error body; a 429 carries its retry delay as RetryInfo (taken from a scenario's retry-after header). */
export function geminiErrorBody(status: number, message: string, headers: Record<string, string> = {}): unknown {
  const retryAfter = headers["retry-after"];
  const details = status === 429 && retryAfter !== undefined && /^\d+(\.\d+)?$/.test(retryAfter) ? [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryAfter}s` }] : [];
  return { error: { code: status, message, status: statusNames[status] ?? "UNKNOWN", ...(details.length > 0 ? { details } : {}) } };
}
