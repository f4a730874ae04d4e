import type { ContentBlock, Message } from "../llm/types.js";
import { readTools, toolCallsOf } from "./tool-history.js";

export function supersededReadNote(path: string): string {
  return `[An earlier read of '${path}' was removed here to save context: the file was read again later in the conversation.]`;
}

interface ReadResult {
  messageIndex: number;
  /** The block holding the file's content. */
  blockIndex: number;
  path: string;
}

const xmlHeader = /^\[read_file for '(.+)'\] Result:$/;

/** Where every successful file read's content sits, in conversation order. */
function readResults(messages: readonly Message[]): ReadResult[] {
  const readPathById = new Map<string, string>();
  const results: ReadResult[] = [];
  messages.forEach((message, messageIndex) => {
    if (message.role === "assistant") {
      for (const call of toolCallsOf(message)) {
        const path = call.params["path"];
        if (call.id !== undefined && readTools.has(call.name) && path !== undefined) readPathById.set(call.id, path);
      }
      return;
    }
    message.content.forEach((block, blockIndex) => {
      if (block.type === "tool_result") {
        const path = readPathById.get(block.toolUseId);
        if (path !== undefined && block.isError !== true) results.push({ messageIndex, blockIndex, path });
        return;
      }
      if (block.type !== "text") return;
      const path = xmlHeader.exec(block.text)?.[1];
      const next = message.content[blockIndex + 1];
      if (path !== undefined && next?.type === "text" && !next.text.startsWith("Error")) results.push({ messageIndex, blockIndex: blockIndex + 1, path });
    });
  });
  return results;
}

/**
 * The cheap step of compaction: every read of a file that was read again later is
 * replaced by a one-line note (the later read has the current content). Pure; messages
 * that do not change are kept as the same objects.
 */
export function supersedeFileReads(messages: readonly Message[]): { messages: Message[]; replaced: number; savedCharacters: number } {
  const results = readResults(messages);
  const lastByPath = new Map<string, ReadResult>();
  for (const result of results) lastByPath.set(result.path, result);
  const replacements = new Map<number, Map<number, string>>();
  for (const result of results) {
    if (lastByPath.get(result.path) === result) continue;
    const byBlock = replacements.get(result.messageIndex) ?? new Map<number, string>();
    byBlock.set(result.blockIndex, result.path);
    replacements.set(result.messageIndex, byBlock);
  }
  let replaced = 0;
  let savedCharacters = 0;
  const output = messages.map((message, messageIndex) => {
    const byBlock = replacements.get(messageIndex);
    if (byBlock === undefined) return message;
    let changed = false;
    const content = message.content.map((block, blockIndex): ContentBlock => {
      const path = byBlock.get(blockIndex);
      if (path === undefined) return block;
      const note = supersededReadNote(path);
      if (block.type === "text") {
        if (block.text === note || block.text.length <= note.length) return block;
        changed = true;
        replaced += 1;
        savedCharacters += block.text.length - note.length;
        return { type: "text", text: note };
      }
      if (block.type === "tool_result") {
        const length = typeof block.content === "string" ? block.content.length : JSON.stringify(block.content).length;
        if (block.content === note || length <= note.length) return block;
        changed = true;
        replaced += 1;
        savedCharacters += length - note.length;
        return { ...block, content: note };
      }
      return block;
    });
    return changed ? { ...message, content } : message;
  });
  return { messages: output, replaced, savedCharacters };
}
