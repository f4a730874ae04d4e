import type { ContentBlock, Message } from "../llm/types.js";
import { checklistTag } from "./checklist.js";
import { messageText } from "./tool-history.js";

export const summaryTag = "conversation_summary";
export const userMessagesTag = "user_messages";
export const fileContentTag = "file_content";

const injectedPrefixes = [`<${summaryTag}`, `<${userMessagesTag}>`, `<${checklistTag}>`, `<${fileContentTag}`];

/** Blocks a compaction added to the first message (a later compaction replaces them). */
export function isInjectedBlock(block: ContentBlock): boolean {
  return block.type === "text" && injectedPrefixes.some((prefix) => block.text.startsWith(prefix));
}

const userWordsPattern = /<(feedback|answer|user_message)>\n?([\s\S]*?)\n?<\/\1>/g;

/** What the user wrote after the task (feedback, answers, messages), verbatim and in order. */
export function laterUserMessages(messages: readonly Message[]): string[] {
  const found: string[] = [];
  messages.forEach((message, index) => {
    if (message.role !== "user") return;
    for (const block of message.content) {
      if (block.type !== "text" && block.type !== "tool_result") continue;
      if (index === 0 && block.type === "text" && !block.text.startsWith(`<${userMessagesTag}>`)) continue;
      const text = block.type === "text" ? block.text : messageText({ role: "user", content: [block] });
      for (const match of text.matchAll(userWordsPattern)) {
        const words = match[2]?.trim();
        if (words !== undefined && words !== "" && found.at(-1) !== words) found.push(words);
      }
    }
  });
  return found;
}

/**
 * The first message of the task and the number of leading messages that form the tail:
 * the index of the `turns`-th assistant message from the end (a tail that starts with
 * an assistant turn keeps every tool call with its result). 0 when there are too few turns.
 */
export function chooseKeepFrom(messages: readonly Message[], turns: number): number {
  let seen = 0;
  for (let index = messages.length - 1; index >= 1; index -= 1) {
    if (messages[index]?.role !== "assistant") continue;
    seen += 1;
    if (seen === Math.max(1, turns)) return messages[index - 1]?.role === "user" ? index : 0;
  }
  return 0;
}

/** Assistant turns before `keepFrom` (with their results) that mention `needle`, most recent last. */
export function turnsMentioning(messages: readonly Message[], keepFrom: number, needle: string, limit: number): number[] {
  const found: number[] = [];
  for (let index = keepFrom - 2; index >= 1 && found.length < limit; index -= 1) {
    const assistant = messages[index];
    const result = messages[index + 1];
    if (assistant?.role !== "assistant" || result?.role !== "user") continue;
    if (messageText(assistant).includes(needle) || messageText(result).includes(needle)) found.unshift(index);
  }
  return found;
}

export interface KeptFile {
  path: string;
  /** Undefined: the file no longer exists (or cannot be read). */
  content: string | undefined;
  truncated: boolean;
}

/** How a re-read file is given to the model after a summary. */
export function keptFileText(file: KeptFile): string {
  const body = file.content === undefined ? "(this file no longer exists or cannot be read)" : `${file.content}${file.truncated ? "\n[... truncated]" : ""}`;
  return `<${fileContentTag} path="${file.path}">\n[Current content, re-read after the summary]\n${body}\n</${fileContentTag}>`;
}

/**
 * The conversation after a summary: the task's first message (verbatim) with the summary,
 * the user's later messages verbatim, the checklist and the re-read files; then any turns
 * kept because the summary missed something they mention; then the last turns verbatim.
 */
export function rebuildConversation(options: {
  messages: readonly Message[];
  keepFrom: number;
  /** Assistant indices before `keepFrom`; each is kept with the user message after it. */
  extraTurns: readonly number[];
  summary: string;
  userMessages: readonly string[];
  checklist: string | undefined;
  files: readonly KeptFile[];
}): Message[] {
  const first = options.messages[0];
  const original = (first?.content ?? []).filter((block) => !isInjectedBlock(block));
  const head: ContentBlock[] = [
    ...original,
    {
      type: "text",
      text: `<${summaryTag}>\n[Earlier turns of this conversation were condensed into this summary to stay within the context window. ` + `The last turns follow verbatim.]\n\n${options.summary.trim()}\n</${summaryTag}>`,
    },
  ];
  if (options.userMessages.length > 0) {
    const quoted = options.userMessages.map((text) => `<feedback>\n${text}\n</feedback>`).join("\n");
    head.push({ type: "text", text: `<${userMessagesTag}>\nEvery message of the user since the task, verbatim:\n${quoted}\n</${userMessagesTag}>` });
  }
  if (options.checklist !== undefined) head.push({ type: "text", text: `<${checklistTag}>\n${options.checklist}\n</${checklistTag}>` });
  for (const file of options.files) head.push({ type: "text", text: keptFileText(file) });
  const extra = [...new Set(options.extraTurns)].filter((index) => index >= 1 && index + 1 < options.keepFrom).sort((left, right) => left - right);
  const kept: Message[] = [];
  for (const index of extra) {
    const assistant = options.messages[index];
    const result = options.messages[index + 1];
    if (assistant !== undefined && result !== undefined) kept.push(assistant, result);
  }
  return [{ role: "user", content: head }, ...kept, ...options.messages.slice(options.keepFrom)];
}
