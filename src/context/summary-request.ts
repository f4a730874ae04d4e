import type { Message } from "../llm/types.js";
import type { ChecklistItem } from "./checklist.js";
import { formatChecklist } from "./checklist.js";

/** Longest tool result copied into the summary request; the rest is elided (the summary needs the gist). */
const toolResultCharacters = 3_000;

export const summarySystemPrompt = `You condense the conversation of an autonomous coding agent so that the agent can continue its task from your summary alone. You cannot call tools. Answer with the summary only, in markdown, with exactly these sections in this order:

## Task
The user's original task and every later message of the user, each quoted verbatim.
## Decisions
Decisions taken and why.
## Files
Every file read or changed, with its path and why (say which were changed and how).
## Commands
Commands run and their outcome.
## Errors
Errors met and how they were resolved (or that they were not).
## Open checklist items
The open items of the task checklist, verbatim.
## Next step
What the agent was doing and should do next.

Be specific: keep paths, names, numbers and error messages exact. Never invent anything that is not in the conversation.`;

function blockText(message: Message): string {
  const parts: string[] = [];
  for (const block of message.content) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "reasoning":
        break;
      case "image":
        parts.push("[image]");
        break;
      case "tool_use":
        parts.push(`[tool call ${block.name}] ${JSON.stringify(block.input)}`);
        break;
      case "tool_result": {
        const text = typeof block.content === "string" ? block.content : block.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
        parts.push(`[tool result${block.isError === true ? " (error)" : ""}] ${elide(text)}`);
        break;
      }
    }
  }
  return parts.join("\n");
}

function elide(text: string): string {
  if (text.length <= toolResultCharacters) return text;
  return `${text.slice(0, toolResultCharacters)}\n[... ${text.length - toolResultCharacters} more characters]`;
}

/** The conversation as plain text: a summary request carries no tool blocks (it offers no tools). */
export function transcriptOf(messages: readonly Message[]): string {
  return messages.map((message) => `### ${message.role === "user" ? "User" : "Assistant"}\n${blockText(message)}`).join("\n\n");
}

export interface SummaryRequest {
  systemPrompt: string;
  messages: Message[];
}

/**
 * The dedicated summary request: the conversation to condense as a transcript, with what
 * the summary must name (known from the tool history) spelled out.
 */
export function buildSummaryRequest(options: { messages: readonly Message[]; editedFiles: readonly string[]; openItems: readonly ChecklistItem[]; truncated: number }): SummaryRequest {
  const lines = ["<conversation>", transcriptOf(options.messages), "</conversation>", ""];
  if (options.truncated > 0) lines.push(`(${options.truncated} messages in the middle of the conversation were left out: it did not fit.)`, "");
  if (options.editedFiles.length > 0) lines.push("The summary must name each of these edited files:", ...options.editedFiles.map((file) => `- ${file}`), "");
  if (options.openItems.length > 0) lines.push("The summary must list these open checklist items verbatim:", formatChecklist(options.openItems), "");
  lines.push("Write the summary now, with the sections named in your instructions.");
  return { systemPrompt: summarySystemPrompt, messages: [{ role: "user", content: [{ type: "text", text: lines.join("\n") }] }] };
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/[`*_]/g, "").replace(/\s+/g, " ").trim();
}

/**
 * What a summary fails to name: every edited file (by its path or its file name) and
 * every open checklist item (by its text) must appear.
 */
export function summaryOmissions(summary: string, required: { editedFiles: readonly string[]; openItems: readonly ChecklistItem[] }): { files: string[]; items: string[] } {
  const text = normalise(summary);
  const files = required.editedFiles.filter((file) => {
    const name = file.split(/[\\/]/).at(-1) ?? file;
    return !text.includes(normalise(file)) && !text.includes(normalise(name));
  });
  const items = required.openItems.map((item) => item.text).filter((item) => !text.includes(normalise(item)));
  return { files, items };
}
