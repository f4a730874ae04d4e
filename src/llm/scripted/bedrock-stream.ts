/**
 * Amazon Bedrock's streaming answers as the scripted server writes them (issue 34): binary
 * `application/vnd.amazon.eventstream` messages, each a prelude (total and header lengths, the
 * prelude's CRC32), string headers (`:event-type`, `:content-type`, `:message-type`), a JSON
 * payload and the message's CRC32. InvokeModelWithResponseStream carries the Anthropic events
 * base64 in `chunk` events; ConverseStream sends its own events (messageStart ... metadata).
 * The AWS SDKs check both checksums, so a wrong byte fails the tests.
 */
import { crc32 } from "node:zlib";
import type { ScenarioTurn } from "./scenario.js";
import { splitText, toolArgumentsText } from "./scenario.js";

const stringType = 7;

/** One event-stream message with string headers and a JSON payload. */
export function eventStreamMessage(headers: Record<string, string>, payload: unknown): Buffer {
  const headerParts: Buffer[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const nameBytes = Buffer.from(name, "utf8");
    const valueBytes = Buffer.from(value, "utf8");
    const part = Buffer.alloc(1 + nameBytes.length + 1 + 2 + valueBytes.length);
    part.writeUInt8(nameBytes.length, 0);
    nameBytes.copy(part, 1);
    part.writeUInt8(stringType, 1 + nameBytes.length);
    part.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
    valueBytes.copy(part, 4 + nameBytes.length);
    headerParts.push(part);
  }
  const headerBytes = Buffer.concat(headerParts);
  const body = Buffer.from(JSON.stringify(payload), "utf8");
  const total = 12 + headerBytes.length + body.length + 4;
  const message = Buffer.alloc(total);
  message.writeUInt32BE(total, 0);
  message.writeUInt32BE(headerBytes.length, 4);
  message.writeUInt32BE(crc32(message.subarray(0, 8)), 8);
  headerBytes.copy(message, 12);
  body.copy(message, 12 + headerBytes.length);
  message.writeUInt32BE(crc32(message.subarray(0, total - 4)), total - 4);
  return message;
}

function event(type: string, payload: unknown): Buffer {
  return eventStreamMessage({ ":event-type": type, ":content-type": "application/json", ":message-type": "event" }, payload);
}

/** An exception inside the stream (`throttlingException`, `modelStreamErrorException` ...). */
export function bedrockStreamError(type: string, message: string): Buffer {
  const exception = /Exception$/.test(type) ? type : "modelStreamErrorException";
  return eventStreamMessage({ ":exception-type": exception, ":content-type": "application/json", ":message-type": "exception" }, { message });
}

/** The Anthropic SSE frames of a turn as InvokeModelWithResponseStream `chunk` events. */
export function bedrockInvokeFrames(sseFrames: readonly string[]): Buffer[] {
  return sseFrames.map((frame) => {
    const data = frame.slice(frame.indexOf("data: ") + 6).trim();
    return event("chunk", { bytes: Buffer.from(data, "utf8").toString("base64") });
  });
}

/** The ConverseStream events of one turn: reasoning, text and tool-use blocks, the stop reason, then usage. */
export function bedrockConverseFrames(turn: ScenarioTurn, options: { chunkSize: number }): Buffer[] {
  const frames: Buffer[] = [event("messageStart", { role: "assistant" })];
  let index = 0;
  if (turn.reasoning !== undefined) {
    for (const piece of splitText(turn.reasoning, options.chunkSize)) frames.push(event("contentBlockDelta", { contentBlockIndex: index, delta: { reasoningContent: { text: piece } } }));
    if (turn.reasoningSignature !== undefined) frames.push(event("contentBlockDelta", { contentBlockIndex: index, delta: { reasoningContent: { signature: turn.reasoningSignature } } }));
    frames.push(event("contentBlockStop", { contentBlockIndex: index }));
    index += 1;
  }
  if (turn.text !== undefined && turn.text !== "") {
    for (const piece of splitText(turn.text, options.chunkSize)) frames.push(event("contentBlockDelta", { contentBlockIndex: index, delta: { text: piece } }));
    frames.push(event("contentBlockStop", { contentBlockIndex: index }));
    index += 1;
  }
  for (const [position, call] of (turn.toolCalls ?? []).entries()) {
    frames.push(event("contentBlockStart", { contentBlockIndex: index, start: { toolUse: { toolUseId: call.id ?? `tooluse_${index}_${position}`, name: call.name } } }));
    for (const piece of splitText(toolArgumentsText(call), options.chunkSize)) frames.push(event("contentBlockDelta", { contentBlockIndex: index, delta: { toolUse: { input: piece } } }));
    frames.push(event("contentBlockStop", { contentBlockIndex: index }));
    index += 1;
  }
  const usage = turn.usage ?? { inputTokens: 10, outputTokens: 10 };
  const stopReason = turn.stopReason ?? ((turn.toolCalls ?? []).length > 0 ? "tool_use" : "end_turn");
  frames.push(
    event("messageStop", { stopReason }),
    event("metadata", {
      usage: {
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        totalTokens: usage.inputTokens + usage.outputTokens,
        ...(usage.cacheReadTokens === undefined ? {} : { cacheReadInputTokens: usage.cacheReadTokens }),
        ...(usage.cacheWriteTokens === undefined ? {} : { cacheWriteInputTokens: usage.cacheWriteTokens }),
      },
      metrics: { latencyMs: 1 },
    }),
  );
  return frames;
}

const exceptionNames: Record<number, string> = {
  400: "ValidationException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  408: "ModelTimeoutException",
  424: "ModelErrorException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

/** The JSON error body Bedrock answers with; the exception's name is in `x-amzn-errortype`. */
export function bedrockErrorResponse(status: number, message: string): { body: unknown; headers: Record<string, string> } {
  const name = exceptionNames[status] ?? (status >= 500 ? "InternalServerException" : "ValidationException");
  return { body: { message }, headers: { "x-amzn-errortype": `${name}:http://internal.amazon.com/coral/com.amazon.bedrock/` } };
}
