/**
 * The buttons of an open ask, as the terminal UI offers them (its menu,
 * src/ui/tui/ask-choices.ts), and the body each sends to
 * `POST /api/tasks/:id/answer` (docs/server.md): `yes` (and `always`), `no`,
 * or `message` with the user's text.
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
  /** "Yes, and always allow" the rule the approval suggests, saved in the user's config (as the terminal's menu does). */
  always?: "user" | "project";
}

/** The answers offered for `ask`; asks answered by typing (a follow-up, the completion, a plan) get a reply box and their own options. */
export function askButtons(ask: JsonMessage): { buttons: AskButton[]; options: string[]; typed: boolean } {
  const kind = (ask.ask ?? "tool") as AskType;
  const options = Array.isArray(ask.meta?.["options"]) ? ask.meta["options"].filter((option): option is string => typeof option === "string") : [];
  const choices = askChoices({ type: "ask", ask: kind, id: ask.id, ts: ask.ts, text: ask.text, partial: ask.partial, ...(ask.meta === undefined ? {} : { meta: ask.meta }) });
  if (choices === undefined) {
    // Typed questions: the completion can be accepted as it is; a plan or a question wants words.
    const accept: AskButton[] = kind === "completion_result" ? [{ label: "Done", response: "yes", withText: false }] : kind === "elicitation" ? [{ label: "Decline the form", response: "no", withText: false }] : [];
    return { buttons: [...accept, { label: "Reply", response: "message", withText: true }], options, typed: true };
  }
  const buttons = choices.map((choice): AskButton => {
    if (choice.kind === "reply") return { label: choice.label, response: choice.response, withText: true };
    const always = "always" in choice.response ? choice.response.always : undefined;
    return { label: choice.label, response: choice.response.response, withText: false, ...(always === undefined ? {} : { always }) };
  });
  return { buttons, options, typed: false };
}
