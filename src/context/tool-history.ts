import type { Message, ToolUseContent } from "../llm/types.js";

/** One tool call found in the history, in either tool protocol. */
export interface ToolCallRecord {
  name: string;
  /** Parameters as text (native inputs are stringified). */
  params: Record<string, string>;
  /** Native protocol: the call id its result refers to. */
  id?: string;
}

/** Tools whose `path` the user's files are changed through. */
export const editTools: ReadonlySet<string> = new Set(["write_to_file", "replace_in_file", "apply_diff", "insert_content", "search_and_replace"]);
export const readTools: ReadonlySet<string> = new Set(["read_file"]);
export const checklistToolName = "update_checklist";
export const taskProgressParameter = "task_progress";

const xmlCallPattern = /<([a-z][a-z0-9_]*)>([\s\S]*?)<\/\1>/g;
const xmlParameterPattern = /<([a-z][a-z0-9_]*)>([\s\S]*?)<\/\1>/g;
/** The tools whose xml calls matter to compaction: edits, reads, commands and the checklist. */
const trackedXmlTools: ReadonlySet<string> = new Set([...editTools, ...readTools, "execute_command", "attempt_completion", "ask_followup_question", "list_files", "search_files"]);

function xmlCalls(text: string): ToolCallRecord[] {
  const calls: ToolCallRecord[] = [];
  for (const match of text.matchAll(xmlCallPattern)) {
    const name = match[1] ?? "";
    if (!trackedXmlTools.has(name)) continue;
    const params: Record<string, string> = {};
    for (const parameter of (match[2] ?? "").matchAll(xmlParameterPattern)) {
      const key = parameter[1] ?? "";
      params[key] = (parameter[2] ?? "").replace(/^\n/, "").replace(/\n$/, "");
    }
    calls.push({ name, params });
  }
  // task_progress may sit in any tool call, including ones not tracked above.
  const progress = [...text.matchAll(/<task_progress>([\s\S]*?)<\/task_progress>/g)].at(-1);
  if (progress?.[1] !== undefined && !calls.some((call) => call.params[taskProgressParameter] !== undefined)) {
    calls.push({ name: "task_progress", params: { [taskProgressParameter]: progress[1].trim() } });
  }
  return calls;
}

function nativeCall(block: ToolUseContent): ToolCallRecord {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(block.input)) params[key] = typeof value === "string" ? value : JSON.stringify(value);
  return { name: block.name, params, id: block.id };
}

const callCache = new WeakMap<Message, ToolCallRecord[]>();

/** The tool calls of an assistant message (remembered per message: messages never change). */
export function toolCallsOf(message: Message): ToolCallRecord[] {
  if (message.role !== "assistant") return [];
  const known = callCache.get(message);
  if (known !== undefined) return known;
  const calls: ToolCallRecord[] = [];
  for (const block of message.content) {
    if (block.type === "tool_use") calls.push(nativeCall(block));
    else if (block.type === "text") calls.push(...xmlCalls(block.text));
  }
  callCache.set(message, calls);
  return calls;
}

/** What the tool history says about files, most recent last, without duplicates. */
export function filesTouched(messages: readonly Message[]): { edited: string[]; read: string[]; recent: string[] } {
  const edited: string[] = [];
  const read: string[] = [];
  const recent: string[] = [];
  const move = (list: string[], path: string): void => {
    const at = list.indexOf(path);
    if (at !== -1) list.splice(at, 1);
    list.push(path);
  };
  for (const message of messages) {
    for (const call of toolCallsOf(message)) {
      const path = call.params["path"]?.trim();
      if (path === undefined || path === "") continue;
      if (editTools.has(call.name)) {
        move(edited, path);
        move(recent, path);
      } else if (readTools.has(call.name)) {
        move(read, path);
        move(recent, path);
      }
    }
  }
  return { edited, read, recent };
}

/** Every text of a message as one string (for searching what a turn mentions). */
export function messageText(message: Message): string {
  const parts: string[] = [];
  for (const block of message.content) {
    if (block.type === "text" || block.type === "reasoning") parts.push(block.text);
    else if (block.type === "tool_use") parts.push(block.name, JSON.stringify(block.input));
    else if (block.type === "tool_result") {
      parts.push(typeof block.content === "string" ? block.content : block.content.map((part) => (part.type === "text" ? part.text : "")).join("\n"));
    }
  }
  return parts.join("\n");
}
