import type { Message } from "../llm/types.js";
import { checklistToolName, taskProgressParameter, toolCallsOf } from "./tool-history.js";

export interface ChecklistItem {
  text: string;
  done: boolean;
}

/** The block compaction re-injects, so the list survives a summary. */
export const checklistTag = "current_checklist";

/** A markdown checklist (`- [ ] step`, `- [x] step`); other lines are ignored. */
export function parseChecklist(markdown: string): ChecklistItem[] {
  const items: ChecklistItem[] = [];
  for (const line of markdown.split("\n")) {
    const match = /^\s*(?:[-*+]|\d+[.)])\s*\[([ xX])\]\s+(.+?)\s*$/.exec(line);
    if (match?.[2] !== undefined) items.push({ text: match[2], done: match[1] !== " " });
  }
  return items;
}

export function formatChecklist(items: readonly ChecklistItem[]): string {
  return items.map((item) => `- [${item.done ? "x" : " "}] ${item.text}`).join("\n");
}

export function openItems(items: readonly ChecklistItem[]): ChecklistItem[] {
  return items.filter((item) => !item.done);
}

/** The checklist an assistant message sets (task_progress on any tool, or update_checklist), if any. */
export function checklistSetBy(message: Message): string | undefined {
  let found: string | undefined;
  for (const call of toolCallsOf(message)) {
    const value = call.name === checklistToolName ? (call.params["checklist"] ?? call.params[taskProgressParameter]) : call.params[taskProgressParameter];
    if (value !== undefined && value.trim() !== "") found = value.trim();
  }
  return found;
}

/** The checklist a compacted conversation carries in its first message. */
function checklistInjectedIn(message: Message): string | undefined {
  if (message.role !== "user") return undefined;
  for (const block of message.content) {
    if (block.type !== "text" || !block.text.startsWith(`<${checklistTag}>`)) continue;
    const match = new RegExp(`<${checklistTag}>\\n?([\\s\\S]*?)\\n?</${checklistTag}>`).exec(block.text);
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

/** The latest checklist of the conversation and how many assistant turns ago it was set. */
export function latestChecklist(messages: readonly Message[]): { markdown: string; turnsSince: number } | undefined {
  let turnsSince = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message === undefined) continue;
    const set = message.role === "assistant" ? checklistSetBy(message) : checklistInjectedIn(message);
    if (set !== undefined) return { markdown: set, turnsSince };
    if (message.role === "assistant") turnsSince += 1;
  }
  return undefined;
}

/**
 * The reminder for the environment details: the open items, every `every` requests
 * without an update of the list (nothing when there is no list or nothing is open).
 */
export function checklistReminder(messages: readonly Message[], every: number): string | undefined {
  if (every <= 0) return undefined;
  const latest = latestChecklist(messages);
  if (latest === undefined || latest.turnsSince === 0 || latest.turnsSince % every !== 0) return undefined;
  const open = openItems(parseChecklist(latest.markdown));
  if (open.length === 0) return undefined;
  return [
    "# Task checklist reminder",
    `You have not updated the task checklist for ${latest.turnsSince} requests. Its open items:`,
    formatChecklist(open),
    "Update it with your next tool call when you finish a step.",
  ].join("\n");
}

/** Adds the reminder inside the environment details block (before its closing tag). */
export function withChecklistReminder(details: string, reminder: string | undefined): string {
  if (reminder === undefined) return details;
  const closing = "</environment_details>";
  const at = details.lastIndexOf(closing);
  if (at === -1) return `${details}\n\n${reminder}`;
  return `${details.slice(0, at)}${reminder}\n\n${details.slice(at)}`;
}
