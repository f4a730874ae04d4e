import type { ContentBlock, Message } from "../llm/types.js";

/**
 * Makes room in the context window: keeps the first exchange (the task) and
 * drops the oldest half of the rest, in whole user/assistant pairs so roles
 * still alternate. A kept tool result whose call was dropped becomes plain text
 * (a missing result for a kept call is added by the provider's pairing check).
 */
export function truncateHistory(messages: Message[]): { messages: Message[]; removed: number; start: number } {
  const keepHead = 2;
  const rest = messages.length - keepHead;
  let remove = Math.floor(rest / 2);
  if (remove % 2 === 1) remove -= 1;
  if (rest < 4 || remove <= 0) return { messages, removed: 0, start: keepHead };
  return { messages: dropMessages(messages, keepHead, remove), removed: remove, start: keepHead };
}

/**
 * Removes `count` messages from `start`; a kept tool result whose call was
 * dropped becomes plain text. Pure and deterministic, so the task log can record
 * a cut as one marker entry and replay it (P-perf-4).
 */
export function dropMessages(messages: readonly Message[], start: number, count: number): Message[] {
  const kept = [...messages.slice(0, start), ...messages.slice(start + count)];
  const callIds = new Set<string>();
  const result = kept.map((message) => {
    if (message.role === "assistant") {
      for (const block of message.content) if (block.type === "tool_use") callIds.add(block.id);
      return message;
    }
    if (!message.content.some((block) => block.type === "tool_result" && !callIds.has(block.toolUseId))) return message;
    const content = message.content.map((block): ContentBlock => {
      if (block.type !== "tool_result" || callIds.has(block.toolUseId)) return block;
      const text = typeof block.content === "string" ? block.content : block.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
      return { type: "text", text: `[Result of an earlier tool call]\n${text}` };
    });
    return { ...message, content };
  });
  return result;
}
