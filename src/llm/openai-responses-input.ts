import type OpenAI from "openai";
import { DroppedReasoning, signatureOwner, signaturePayload, tagSignature } from "./reasoning-signature.js";
import { ensureToolResultPairing } from "./tool-result-pairing.js";
import type { ContentBlock, ImageContent, Message, ReasoningContent, ToolResultContent, ToolSchema } from "./types.js";

type InputItem = OpenAI.Responses.ResponseInputItem;
type InputContent = OpenAI.Responses.ResponseInputContent;
type ReasoningItem = OpenAI.Responses.ResponseReasoningItem;

/**
 * What an encrypted reasoning item carries back: with `store: false` the server keeps nothing,
 * so the item goes back whole (id, summary and the encrypted content) on the next request.
 */
interface StoredReasoningItem {
  id: string;
  summary: string[];
  encrypted_content: string;
}

/** A finished reasoning output item as the history's signature (see reasoning-signature.ts). */
export function reasoningItemSignature(item: ReasoningItem): string | undefined {
  if (typeof item.encrypted_content !== "string" || item.encrypted_content === "") return undefined;
  const stored: StoredReasoningItem = {
    id: item.id,
    summary: item.summary.map((part) => part.text),
    encrypted_content: item.encrypted_content,
  };
  return tagSignature("openai-responses", JSON.stringify(stored));
}

function storedReasoning(block: ReasoningContent): StoredReasoningItem | undefined {
  const payload = signaturePayload("openai-responses", block.signature);
  if (payload === undefined) return undefined;
  try {
    const value = JSON.parse(payload) as Partial<StoredReasoningItem>;
    if (typeof value.id !== "string" || typeof value.encrypted_content !== "string" || !Array.isArray(value.summary)) return undefined;
    return { id: value.id, encrypted_content: value.encrypted_content, summary: value.summary.filter((text) => typeof text === "string") };
  } catch {
    return undefined;
  }
}

function imageContent(block: ImageContent): InputContent {
  return { type: "input_image", detail: "auto", image_url: `data:${block.mediaType};base64,${block.data}` };
}

function toolOutput(result: ToolResultContent): InputItem {
  const output: OpenAI.Responses.ResponseInputItem.FunctionCallOutput["output"] =
    typeof result.content === "string"
      ? result.content
      : result.content.map((part) =>
          part.type === "text" ? { type: "input_text" as const, text: part.text } : { type: "input_image" as const, detail: "auto" as const, image_url: `data:${part.mediaType};base64,${part.data}` },
        );
  return { type: "function_call_output", call_id: result.toolUseId, output };
}

function userItems(content: ContentBlock[]): InputItem[] {
  const items: InputItem[] = [];
  const parts: InputContent[] = [];
  for (const block of content) {
    if (block.type === "tool_result") items.push(toolOutput(block));
    else if (block.type === "text" && block.text !== "") parts.push({ type: "input_text", text: block.text });
    else if (block.type === "image") parts.push(imageContent(block));
  }
  // Outputs first: each follows the function_call it answers.
  if (parts.length > 0) items.push({ role: "user", content: parts });
  return items;
}

function reasoningItem(block: ReasoningContent, dropped: DroppedReasoning, keepReasoning: boolean): InputItem[] {
  const stored = storedReasoning(block);
  // A model without reasoning refuses reasoning items (the task switched from a reasoning model).
  if (stored !== undefined && !keepReasoning) return [];
  if (stored !== undefined) {
    return [
      {
        type: "reasoning",
        id: stored.id,
        summary: stored.summary.map((text) => ({ type: "summary_text" as const, text })),
        encrypted_content: stored.encrypted_content,
      },
    ];
  }
  // Reasoning another API signed (or redacted) means nothing here; plain text is only for display.
  if (block.redactedData !== undefined) dropped.add("anthropic");
  else if (block.signature !== undefined) dropped.add(signatureOwner(block.signature));
  return [];
}

function assistantItems(content: ContentBlock[], dropped: DroppedReasoning, keepReasoning: boolean): InputItem[] {
  const items: InputItem[] = [];
  let text = "";
  const flushText = (): void => {
    if (text !== "") items.push({ role: "assistant", content: text });
    text = "";
  };
  for (const block of content) {
    if (block.type === "text") {
      text += block.text;
    } else if (block.type === "reasoning") {
      flushText();
      items.push(...reasoningItem(block, dropped, keepReasoning));
    } else if (block.type === "tool_use") {
      flushText();
      items.push({ type: "function_call", call_id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
    }
  }
  flushText();
  return items;
}

export interface ResponsesInput {
  input: InputItem[];
  /** A note for the user when reasoning from another API was left out. */
  note?: string;
}

export interface ResponsesInputOptions {
  /** Send encrypted reasoning items back (default true); false for models without reasoning. */
  keepReasoning?: boolean;
}

/** The internal history as Responses input items, every function_call paired with its output by call_id. */
export function toResponsesInput(messages: Message[], options: ResponsesInputOptions = {}): ResponsesInput {
  const keepReasoning = options.keepReasoning ?? true;
  const dropped = new DroppedReasoning();
  const input: InputItem[] = [];
  for (const message of ensureToolResultPairing(messages)) {
    input.push(...(message.role === "user" ? userItems(message.content) : assistantItems(message.content, dropped, keepReasoning)));
  }
  const note = dropped.note("the OpenAI Responses API");
  return note === undefined ? { input } : { input, note };
}

export function toResponsesTools(tools: ToolSchema[]): OpenAI.Responses.FunctionTool[] {
  // strict false: cairn's schemas have optional parameters, which strict mode refuses.
  return tools.map((tool) => ({ type: "function", name: tool.name, description: tool.description, parameters: tool.inputSchema, strict: false }));
}
