/**
 * cairn's history as Bedrock Converse messages (issue 34): text, images as bytes, tool uses and
 * their results paired, system prompt and tools in Converse's own shapes. Reasoning is not sent
 * back: the Converse models cairn lists take none (Anthropic models go through the Messages API).
 */
import type { ContentBlock as ConverseBlock, Message as ConverseMessage, Tool, ToolResultContentBlock } from "@aws-sdk/client-bedrock-runtime";
import { ensureToolResultPairing } from "../tool-result-pairing.js";
import type { ContentBlock, ImageContent, Message, ToolSchema } from "../types.js";

const imageFormats: Record<string, "png" | "jpeg" | "gif" | "webp"> = { "image/png": "png", "image/jpeg": "jpeg", "image/gif": "gif", "image/webp": "webp" };

function image(block: ImageContent): ConverseBlock {
  const format = imageFormats[block.mediaType];
  if (format === undefined) return { text: `[image of type ${block.mediaType} omitted: the API accepts png, jpeg, gif and webp]` };
  return { image: { format, source: { bytes: Buffer.from(block.data, "base64") } } };
}

function convert(block: ContentBlock): ConverseBlock | undefined {
  switch (block.type) {
    case "text":
      return block.text === "" ? undefined : { text: block.text };
    case "image":
      return image(block);
    case "tool_use":
      return { toolUse: { toolUseId: block.id, name: block.name, input: block.input as never } };
    case "tool_result": {
      const parts = typeof block.content === "string" ? [{ type: "text" as const, text: block.content }] : block.content;
      const content: ToolResultContentBlock[] = parts.flatMap((part): ToolResultContentBlock[] => {
        if (part.type === "text") return part.text === "" ? [] : [{ text: part.text }];
        const converted = image(part);
        return "image" in converted && converted.image !== undefined ? [{ image: converted.image }] : [{ text: converted.text ?? "" }];
      });
      return { toolResult: { toolUseId: block.toolUseId, content: content.length === 0 ? [{ text: "(no output)" }] : content, ...(block.isError === true ? { status: "error" } : {}) } };
    }
    case "reasoning":
      return undefined;
  }
}

export function toConverseMessages(messages: Message[]): ConverseMessage[] {
  const converted: ConverseMessage[] = [];
  for (const message of ensureToolResultPairing(messages)) {
    const blocks = message.content.flatMap((block) => {
      const param = convert(block);
      return param === undefined ? [] : [param];
    });
    if (message.role === "user") blocks.sort((left, right) => Number(right.toolResult !== undefined) - Number(left.toolResult !== undefined));
    if (blocks.length > 0) converted.push({ role: message.role, content: blocks });
  }
  return converted;
}

export function toConverseTools(tools: ToolSchema[]): Tool[] {
  return tools.map((tool) => ({ toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: tool.inputSchema as never } } }));
}
