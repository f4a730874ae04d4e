import { signatureOwner, type DroppedReasoning } from "./reasoning-signature.js";
import type OpenAI from "openai";
import { ensureToolResultPairing } from "./tool-result-pairing.js";
import type { ContentBlock, ImageContent, Message, TextContent, ToolResultContent, ToolSchema } from "./types.js";

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type UserPart = OpenAI.Chat.Completions.ChatCompletionContentPart;
type AssistantParam = OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam;

/** How the reasoning of earlier answers is sent back. */
export type ReasoningHistory =
  /** Dropped: OpenAI and most servers neither need nor accept it. */
  | "drop"
  /** As `reasoning_content` on the assistant message (DeepSeek-style servers that want it back). */
  | "reasoning_content";

export interface OpenAiConversionOptions {
  reasoningHistory?: ReasoningHistory;
  /** The role of the system prompt; OpenAI's reasoning models also accept "developer". */
  systemRole?: "system" | "developer";
  /** Counts signed reasoning of another API, which Chat Completions cannot take back (#20). */
  dropped?: DroppedReasoning;
}

function imagePart(block: ImageContent): UserPart {
  return { type: "image_url", image_url: { url: `data:${block.mediaType};base64,${block.data}` } };
}

/** Plain string content when there are no images: small local servers handle it best. */
function userContent(parts: UserPart[]): string | UserPart[] {
  if (parts.every((part) => part.type === "text")) return parts.map((part) => part.text).join("\n\n");
  return parts;
}

function toolMessages(result: ToolResultContent): MessageParam[] {
  if (typeof result.content === "string") {
    return [{ role: "tool", tool_call_id: result.toolUseId, content: result.content }];
  }
  const texts = result.content.filter((part): part is TextContent => part.type === "text").map((part) => part.text);
  const images = result.content.filter((part): part is ImageContent => part.type === "image");
  // Tool messages carry text only; images of a tool result follow in a user message.
  const messages: MessageParam[] = [{ role: "tool", tool_call_id: result.toolUseId, content: texts.join("\n\n") }];
  if (images.length > 0) {
    messages.push({
      role: "user",
      content: [{ type: "text", text: `Images returned by tool call ${result.toolUseId}:` }, ...images.map(imagePart)],
    });
  }
  return messages;
}

function userMessages(content: ContentBlock[]): MessageParam[] {
  const messages: MessageParam[] = [];
  const parts: UserPart[] = [];
  for (const block of content) {
    if (block.type === "tool_result") messages.push(...toolMessages(block));
    else if (block.type === "text" && block.text !== "") parts.push({ type: "text", text: block.text });
    else if (block.type === "image") parts.push(imagePart(block));
  }
  if (parts.length > 0) messages.push({ role: "user", content: userContent(parts) });
  return messages;
}

function assistantMessage(content: ContentBlock[], options: OpenAiConversionOptions): MessageParam | undefined {
  const text = content
    .filter((block): block is TextContent => block.type === "text")
    .map((block) => block.text)
    .join("");
  const toolCalls = content.flatMap((block) => (block.type === "tool_use" ? [{ id: block.id, type: "function" as const, function: { name: block.name, arguments: JSON.stringify(block.input) } }] : []));
  const reasoning = content
    .filter((block) => block.type === "reasoning")
    .map((block) => block.text)
    .join("");
  for (const block of content) {
    if (block.type === "reasoning" && block.signature !== undefined && block.redactedData === undefined) options.dropped?.add(signatureOwner(block.signature));
  }
  if (text === "" && toolCalls.length === 0) return undefined;
  const message: AssistantParam & { reasoning_content?: string } = { role: "assistant", content: text === "" ? null : text };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (options.reasoningHistory === "reasoning_content" && reasoning !== "") message.reasoning_content = reasoning;
  return message;
}

/** The system prompt and the internal history as Chat Completions messages, tool calls paired with their results. */
export function toOpenAiMessages(systemPrompt: string, messages: Message[], options: OpenAiConversionOptions = {}): MessageParam[] {
  const converted: MessageParam[] = [{ role: options.systemRole ?? "system", content: systemPrompt }];
  for (const message of ensureToolResultPairing(messages)) {
    if (message.role === "user") {
      converted.push(...userMessages(message.content));
    } else {
      const assistant = assistantMessage(message.content, options);
      if (assistant !== undefined) converted.push(assistant);
    }
  }
  return converted;
}

export function toOpenAiTools(tools: ToolSchema[]): OpenAI.Chat.Completions.ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text === "" ? "{}" : text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function fromUserParts(content: string | UserPart[]): ContentBlock[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return content.flatMap((part): ContentBlock[] => {
    if (part.type === "text") return [{ type: "text", text: part.text }];
    if (part.type === "image_url") {
      const match = /^data:([^;]+);base64,(.*)$/s.exec(part.image_url.url);
      if (match?.[1] !== undefined && match[2] !== undefined) return [{ type: "image", mediaType: match[1], data: match[2] }];
    }
    return [];
  });
}

/** Chat Completions messages back to the internal format (system messages are dropped; tool messages join the next user turn). */
export function fromOpenAiMessages(messages: MessageParam[]): Message[] {
  const result: Message[] = [];
  const userTurn = (): Message => {
    const last = result.at(-1);
    if (last?.role === "user") return last;
    const created: Message = { role: "user", content: [] };
    result.push(created);
    return created;
  };
  for (const message of messages) {
    if (message.role === "tool") {
      const content = typeof message.content === "string" ? message.content : message.content.map((part) => part.text).join("\n\n");
      userTurn().content.push({ type: "tool_result", toolUseId: message.tool_call_id, content });
    } else if (message.role === "user") {
      userTurn().content.push(...fromUserParts(message.content));
    } else if (message.role === "assistant") {
      const content: ContentBlock[] = [];
      const reasoning = (message as { reasoning_content?: unknown }).reasoning_content;
      if (typeof reasoning === "string" && reasoning !== "") content.push({ type: "reasoning", text: reasoning });
      if (typeof message.content === "string" && message.content !== "") content.push({ type: "text", text: message.content });
      for (const call of message.tool_calls ?? []) {
        if (call.type === "function") {
          content.push({ type: "tool_use", id: call.id, name: call.function.name, input: parseArguments(call.function.arguments) });
        }
      }
      result.push({ role: "assistant", content });
    }
  }
  return result;
}
