/**
 * What a key does while a question is open, as a pure decision: use-keys.ts
 * applies it. Menus (approvals, yes/no questions) are answered by a number or
 * by the arrows and Enter; typed text never answers a menu, it opens the
 * "Tell cairn what to do instead" reply with what was typed.
 */
import { metaOf } from "../../task/contracts/message-meta.js";
import type { AskMessage, AskResponse } from "../../task/contracts/messages.js";
import { askChoices, replyChoice } from "./ask-choices.js";
import type { KeyEvent } from "./key-decoder.js";

export type AskKeyAction =
  /** Not an answer: the key edits the input as usual. */
  | { kind: "edit" }
  /** Used up by the question (a menu ignores it). */
  | { kind: "ignore" }
  | { kind: "select"; index: number }
  /** `typed` is the user's own text (cleared from the input and remembered for ↑). */
  | { kind: "answer"; response: AskResponse; typed?: string }
  /** Opens the reply input; the key (typed text) is then edited in as usual. */
  | { kind: "openReply"; thenEdit: boolean }
  | { kind: "closeReply" };

export interface AskKeyInput {
  ask: AskMessage;
  event: KeyEvent;
  /** What is typed in the input. */
  value: string;
  /** The highlighted choice. */
  selected: number;
  /** The reply input of this question was opened. */
  replyOpened: boolean;
  /** Inside a bracketed paste: a pasted digit is text, never a choice. */
  pasting: boolean;
}

/** Whether the reply input shows: opened, or something is typed (typing opens it). */
export function replyIsOpen(ask: AskMessage, replyOpened: boolean, value: string): boolean {
  const choices = askChoices(ask);
  if (choices === undefined || replyChoice(choices) === undefined) return false;
  return replyOpened || value !== "";
}

export function askKeyAction(input: AskKeyInput): AskKeyAction {
  const { ask, event, value, selected } = input;
  const typed = value.trim();
  const isReturn = event.kind === "key" && event.name === "return";
  const text = event.kind === "text" ? event.text : "";
  if (ask.ask === "followup" || ask.ask === "elicitation") {
    const options = (ask.ask === "elicitation" ? metaOf(ask, "elicitation") : metaOf(ask, "followup"))?.options ?? [];
    // An MCP server's form: Esc declines it; Enter on an empty optional field leaves it out.
    if (ask.ask === "elicitation" && event.kind === "key" && event.name === "escape") return { kind: "answer", response: { response: "no" } };
    if (ask.ask === "elicitation" && isReturn && typed === "" && options.length === 0) return { kind: "answer", response: { response: "yes" } };
    if (event.kind === "key" && (event.name === "up" || event.name === "down") && value === "") {
      const count = Math.max(1, options.length);
      return { kind: "select", index: (selected + (event.name === "up" ? count - 1 : 1)) % count };
    }
    const digit = /^[1-9]$/.test(text) && value === "" && !input.pasting ? Number(text) - 1 : -1;
    if (digit >= 0 && digit < options.length) return { kind: "answer", response: { response: "message", text: options[digit]! } };
    if (!isReturn) return { kind: "edit" };
    if (typed !== "") return { kind: "answer", response: { response: "message", text: typed }, typed };
    const option = options[selected];
    return option === undefined ? { kind: "ignore" } : { kind: "answer", response: { response: "message", text: option } };
  }
  const choices = askChoices(ask);
  if (choices === undefined) {
    // Answered by typing: the completion (Enter accepts) and the plan (Tab approves it, see use-keys.ts).
    if (!isReturn) return { kind: "edit" };
    if (typed !== "") return { kind: "answer", response: { response: "message", text: typed }, typed };
    return ask.ask === "completion_result" ? { kind: "answer", response: { response: "yes" } } : { kind: "ignore" };
  }
  const reply = replyChoice(choices);
  if (reply !== undefined && replyIsOpen(ask, input.replyOpened, value)) {
    if (event.kind === "key" && event.name === "escape") return { kind: "closeReply" };
    if (!isReturn) return { kind: "edit" };
    return typed === "" ? { kind: "ignore" } : { kind: "answer", response: { response: reply.response, text: typed }, typed };
  }
  const choose = (index: number): AskKeyAction => {
    const choice = choices[index];
    if (choice === undefined) return { kind: "ignore" };
    return choice.kind === "answer" ? { kind: "answer", response: choice.response } : { kind: "openReply", thenEdit: false };
  };
  if (event.kind === "key" && (event.name === "up" || event.name === "down")) {
    return { kind: "select", index: (selected + (event.name === "up" ? choices.length - 1 : 1)) % choices.length };
  }
  if (isReturn) return choose(Math.min(selected, choices.length - 1));
  if (event.kind === "text") {
    if (!input.pasting && /^[1-9]$/.test(text) && Number(text) <= choices.length) return choose(Number(text) - 1);
    // Letters never answer: they are the start of a reply, where the menu has one.
    return reply === undefined ? { kind: "ignore" } : { kind: "openReply", thenEdit: true };
  }
  // Editing keys have nothing to edit in a menu (Esc, which stops the step, never reaches here).
  return { kind: "ignore" };
}
