import type Anthropic from "@anthropic-ai/sdk";
import { signatureOwner } from "./reasoning-signature.js";
import type { DroppedReasoning } from "./reasoning-signature.js";
import { ensureToolResultPairing } from "./tool-result-pairing.js";
import type { ContentBlock, ImageContent, Message, TextContent, ToolSchema } from "./types.js";

type MessageParam = Anthropic.MessageParam;
type ContentBlockParam = Anthropic.ContentBlockParam;
type ImageBlockParam = Anthropic.ImageBlockParam;
type TextBlockParam = Anthropic.TextBlockParam;
type ImageMediaType = Anthropic.Base64ImageSource["media_type"];

const imageMediaTypes = new Set<string>(["image/jpeg", "image/png", "image/gif", "image/webp"]);
const ephemeral = { type: "ephemeral" } as const;

function image(block: ImageContent): ImageBlockParam | TextBlockParam {
  if (!imageMediaTypes.has(block.mediaType)) {
    return { type: "text", text: `[image of type ${block.mediaType} omitted: the API accepts jpeg, png, gif and webp]` };
  }
  return { type: "image", source: { type: "base64", media_type: block.mediaType as ImageMediaType, data: block.data } };
}

function toolResultPart(part: TextContent | ImageContent): TextBlockParam | ImageBlockParam {
  return part.type === "text" ? { type: "text", text: part.text } : image(part);
}

function convertBlock(block: ContentBlock): ContentBlockParam | undefined {
  switch (block.type) {
    case "text":
      // The API rejects empty text blocks.
      return block.text === "" ? undefined : { type: "text", text: block.text };
    case "image":
      return image(block);
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: block.input };
    case "tool_result": {
      const content = typeof block.content === "string" ? block.content : block.content.map(toolResultPart).filter((part) => part.type !== "text" || part.text !== "");
      return {
        type: "tool_result",
        tool_use_id: block.toolUseId,
        content,
        ...(block.isError === true ? { is_error: true } : {}),
      };
    }
    case "reasoning":
      if (block.redactedData !== undefined) return { type: "redacted_thinking", data: block.redactedData };
      // Thinking without its signature would be refused; it is only kept for display. Reasoning
      // another API signed (reasoning-signature.ts) cannot go back either.
      if (block.signature === undefined || signatureOwner(block.signature) !== "anthropic") return undefined;
      return { type: "thinking", thinking: block.text, signature: block.signature };
  }
}

export interface AnthropicConversionOptions {
  /** Mark the last block of this many latest user messages for prompt caching (default 2). */
  cachedUserTurns?: number;
  /** Counts reasoning another API signed, left out here (#20: a task resumed on another provider). */
  dropped?: DroppedReasoning;
}

/**
 * Internal history to Messages API params: tool results paired and first in their message,
 * thinking kept with its signature, empty blocks and messages dropped, and cache breakpoints on
 * the latest user turns so each request reuses the cached prefix of the one before.
 */
export function toAnthropicMessages(messages: Message[], options: AnthropicConversionOptions = {}): MessageParam[] {
  const converted: MessageParam[] = [];
  for (const message of ensureToolResultPairing(messages)) {
    const blocks = message.content.flatMap((block) => {
      const param = convertBlock(block);
      if (param === undefined && block.type === "reasoning" && block.signature !== undefined && block.redactedData === undefined) {
        options.dropped?.add(signatureOwner(block.signature));
      }
      return param === undefined ? [] : [param];
    });
    if (message.role === "user") {
      blocks.sort((left, right) => Number(right.type === "tool_result") - Number(left.type === "tool_result"));
    }
    if (blocks.length > 0) converted.push({ role: message.role, content: blocks });
  }
  let remaining = options.cachedUserTurns ?? 2;
  for (let position = converted.length - 1; position >= 0 && remaining > 0; position -= 1) {
    const message = converted[position];
    if (message?.role !== "user" || typeof message.content === "string") continue;
    const last = message.content.at(-1);
    if (last === undefined) continue;
    const marked = withCacheControl(last);
    if (marked !== last) {
      message.content[message.content.length - 1] = marked;
      remaining -= 1;
    }
  }
  return converted;
}

function withCacheControl(block: ContentBlockParam): ContentBlockParam {
  switch (block.type) {
    case "text":
    case "image":
    case "tool_result":
    case "tool_use":
      return { ...block, cache_control: ephemeral };
    default:
      return block;
  }
}

/** The system prompt as one cached block: it is the same on every request of a task. */
export function anthropicSystem(systemPrompt: string): TextBlockParam[] {
  return [{ type: "text", text: systemPrompt, cache_control: ephemeral }];
}

/** Tool schemas; the last one carries a cache breakpoint so the tool list is cached with the system prompt. */
export function toAnthropicTools(tools: ToolSchema[]): Anthropic.Tool[] {
  return tools.map((tool, position) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.inputSchema, type: "object" },
    ...(position === tools.length - 1 ? { cache_control: ephemeral } : {}),
  }));
}

function fromToolResultContent(content: Anthropic.ToolResultBlockParam["content"]): string | Array<TextContent | ImageContent> {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content.flatMap((part): Array<TextContent | ImageContent> => {
    if (part.type === "text") return [{ type: "text", text: part.text }];
    if (part.type === "image" && part.source.type === "base64") {
      return [{ type: "image", mediaType: part.source.media_type, data: part.source.data }];
    }
    return [];
  });
}

/** Messages API params back to the internal format (for imported histories and round-trip checks). */
export function fromAnthropicMessages(messages: MessageParam[]): Message[] {
  return messages.map((message): Message => {
    const parts = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
    const content = parts.flatMap((part): ContentBlock[] => {
      switch (part.type) {
        case "text":
          return [{ type: "text", text: part.text }];
        case "image":
          return part.source.type === "base64" ? [{ type: "image", mediaType: part.source.media_type, data: part.source.data }] : [];
        case "tool_use":
          return [{ type: "tool_use", id: part.id, name: part.name, input: (part.input ?? {}) as Record<string, unknown> }];
        case "tool_result":
          return [
            {
              type: "tool_result",
              toolUseId: part.tool_use_id,
              content: fromToolResultContent(part.content),
              ...(part.is_error === true ? { isError: true } : {}),
            },
          ];
        case "thinking":
          return [{ type: "reasoning", text: part.thinking, signature: part.signature }];
        case "redacted_thinking":
          return [{ type: "reasoning", text: "", redactedData: part.data }];
        default:
          return [];
      }
    });
    return { role: message.role === "assistant" ? "assistant" : "user", content };
  });
}
