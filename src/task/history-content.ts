import type { ContentBlock, ImageContent, TextContent } from "../llm/types.js";
import type { Block, ToolUseBlock } from "../parser/types.js";

import type { Protocol } from "./contracts/task-options.js";

export type { Protocol };

/** A short description of a call, used in xml-protocol results (`[read_file for 'a.ts'] Result:`). */
export function describeToolCall(block: ToolUseBlock): string {
  const target = block.params["path"] ?? block.params["command"] ?? block.params["url"] ?? block.params["tool_name"] ?? block.params["uri"];
  return target ? `${block.name} for '${target}'` : block.name;
}

/** The user-content blocks that carry one tool's result to the model. */
export function toolResultContent(options: { protocol: Protocol; block: ToolUseBlock; content: string | Array<TextContent | ImageContent>; isError: boolean }): ContentBlock[] {
  const { block, content, isError } = options;
  if (options.protocol === "native") {
    return [{ type: "tool_result", toolUseId: block.id, content, ...(isError ? { isError: true } : {}) }];
  }
  const header: TextContent = { type: "text", text: `[${describeToolCall(block)}] Result:` };
  if (typeof content === "string") return [header, { type: "text", text: content }];
  return [header, ...content];
}

/**
 * The assistant message kept in the history for one round. xml: the raw text as
 * streamed (cut where the stream was stopped); native: text and the tool calls
 * that got a result, so every tool use in the history is paired.
 */
export function assistantHistoryContent(options: {
  protocol: Protocol;
  blocks: Block[];
  rawText: string;
  answeredToolIds: ReadonlySet<string>;
  /** A native call's parsed arguments; the string params stand in when there are none. */
  toolInput: (blockId: string) => Record<string, unknown> | undefined;
  note?: string;
  /** SPEC T14: the answer is kept only up to the end of this tool call. */
  cutAfterToolId?: string;
}): ContentBlock[] {
  const content: ContentBlock[] = [];
  const cut = options.cutAfterToolId === undefined ? -1 : options.blocks.findIndex((block) => block.type === "tool_use" && block.id === options.cutAfterToolId);
  const blocks = cut === -1 ? options.blocks : options.blocks.slice(0, cut + 1);
  for (const block of blocks) {
    if (block.type === "reasoning" && (block.content.length > 0 || block.signature !== undefined || block.redactedData !== undefined)) {
      content.push({
        type: "reasoning",
        text: block.content,
        ...(block.signature === undefined ? {} : { signature: block.signature }),
        ...(block.redactedData === undefined ? {} : { redactedData: block.redactedData }),
      });
    }
  }
  if (options.protocol === "xml") {
    const kept = cut === -1 ? options.rawText : cutAfterToolCall(options.rawText, blocks);
    const text = options.note ? `${kept.trimEnd()}\n\n${options.note}` : kept;
    if (text.trim().length > 0) content.push({ type: "text", text });
    return content;
  }
  for (const block of blocks) {
    if (block.type === "text" && block.content.trim().length > 0) content.push({ type: "text", text: block.content });
    if (block.type === "tool_use" && options.answeredToolIds.has(block.id)) {
      content.push({ type: "tool_use", id: block.id, name: block.name, input: options.toolInput(block.id) ?? { ...block.params } });
    }
  }
  if (options.note) content.push({ type: "text", text: options.note });
  return content;
}

/**
 * The raw xml text up to the closing tag of the last block in `blocks` (a tool
 * call): the k-th `</name>` for the k-th call of that name.
 */
function cutAfterToolCall(rawText: string, blocks: Block[]): string {
  const last = blocks.at(-1);
  if (last?.type !== "tool_use") return rawText;
  const occurrence = blocks.filter((block) => block.type === "tool_use" && block.name === last.name).length;
  const closing = `</${last.name}>`;
  let position = -1;
  for (let seen = 0; seen < occurrence; seen += 1) {
    position = rawText.indexOf(closing, position + 1);
    if (position === -1) return rawText;
  }
  return rawText.slice(0, position + closing.length);
}
