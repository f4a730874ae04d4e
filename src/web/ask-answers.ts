/**
 * The buttons of an open ask, as the terminal UI offers them (its menu,
 * src/ui/tui/ask-choices.ts), and the body each sends to
 * `POST /api/tasks/:id/answer` (docs/server.md).
 */
import type { AskType } from "../task/contracts/messages.js";
import type { JsonMessage } from "../ui/headless/json-events-reader.js";
import { askChoices } from "../ui/tui/ask-choices.js";
import type { WireResponse } from "./api-types.js";

export interface AskButton {
  label: string;
  response: WireResponse;
  /** Opens a text box; what is typed goes with the answer. */
  withText: boolean;
}

const wire = (response: "yes" | "no" | "message"): WireResponse => (response === "message" ? "messageResponse" : response);

/** The answers offered for `ask`; asks answered by typing (a follow-up, the completion, a plan) get a reply box and their own options. */
export function askButtons(ask: JsonMessage): { buttons: AskButton[]; options: string[]; typed: boolean } {
  const kind = (ask.ask ?? "tool") as AskType;
  const options = Array.isArray(ask.meta?.["options"]) ? ask.meta["options"].filter((option): option is string => typeof option === "string") : [];
  const choices = askChoices({ type: "ask", ask: kind, id: ask.id, ts: ask.ts, text: ask.text, partial: ask.partial, ...(ask.meta === undefined ? {} : { meta: ask.meta }) });
  if (choices === undefined) {
    // Typed questions: the completion can be accepted as it is; a plan or a question wants words.
    const accept: AskButton[] = kind === "completion_result" ? [{ label: "Done", response: "yes", withText: false }] : [];
    return { buttons: [...accept, { label: "Reply", response: "messageResponse", withText: true }], options, typed: true };
  }
  const buttons = choices
    // "Always allow" saves a rule on the machine of whoever answers; the API's answer has no such field.
    .filter((choice) => !(choice.kind === "answer" && "always" in choice.response && choice.response.always !== undefined))
    .map((choice): AskButton => (choice.kind === "reply" ? { label: choice.label, response: wire(choice.response), withText: true } : { label: choice.label, response: wire(choice.response.response), withText: false }));
  return { buttons, options, typed: false };
}
