/** One line of standard input as an answer to an ask. */
import { alwaysAllowChoice, type AskResponse } from "../../task/contracts/messages.js";

export type ParsedAnswerLine = { kind: "json"; id: string; answer: AskResponse } | { kind: "plain"; text: string } | { kind: "invalid"; problem: string };

const example = '{"id": "...", "response": "yes" | "no" | "message", "text": "...", "always"?: "user" | "project", "preview"?: true}';

export function parseAnswerLine(line: string): ParsedAnswerLine {
  const trimmed = line.trim();
  if (!trimmed.startsWith("{")) return { kind: "plain", text: trimmed };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { kind: "invalid", problem: `not valid JSON; expected ${example}` };
  }
  if (typeof value !== "object" || value === null) return { kind: "invalid", problem: `expected ${example}` };
  const record = value as Record<string, unknown>;
  const { id, response, text, always } = record;
  if (typeof id !== "string" && typeof id !== "number") return { kind: "invalid", problem: `"id" is missing; expected ${example}` };
  if (text !== undefined && typeof text !== "string") return { kind: "invalid", problem: `"text" must be a string` };
  const answerId = String(id);
  if (always !== undefined && (response !== "yes" || (always !== "user" && always !== "project"))) {
    return { kind: "invalid", problem: `"always" goes with "response": "yes" and is "user" or "project"` };
  }
  if (response === "no" && record["preview"] === true) return { kind: "json", id: answerId, answer: { response, preview: true, ...(text === undefined ? {} : { text }) } };
  if (response === "yes" || response === "no") {
    return { kind: "json", id: answerId, answer: { response, ...(text === undefined ? {} : { text }), ...(always === undefined ? {} : { always }) } };
  }
  if (response === "message") {
    if (text === undefined || text.trim() === "") return { kind: "invalid", problem: `"response": "message" needs a non-empty "text"` };
    return { kind: "json", id: answerId, answer: { response, text } };
  }
  return { kind: "invalid", problem: `"response" must be "yes", "no" or "message"` };
}

/**
 * A person's plain answer: y / n, "always" (or "always project") where the ask
 * offers a rule, a number picking one of a question's options, anything else
 * is a message. Undefined for an empty line.
 */
export function plainAnswer(text: string, options: readonly string[] = [], offersRule = false, offersPreview = false): AskResponse | undefined {
  const lower = text.toLowerCase();
  if (lower === "") return undefined;
  if (offersPreview && lower === "preview") return { response: "no", preview: true };
  if (lower === "y" || lower === "yes") return { response: "yes" };
  const always = offersRule ? alwaysAllowChoice(text) : undefined;
  if (always !== undefined) return { response: "yes", always };
  if (lower === "n" || lower === "no") return { response: "no" };
  if (/^\d+$/.test(lower)) {
    const option = options[Number(lower) - 1];
    if (option !== undefined) return { response: "message", text: option };
  }
  return { response: "message", text };
}
