/**
 * The choices of a question that is answered from a menu (approvals and the
 * other yes/no questions). A menu is answered by a number, or by the arrows
 * and Enter: typed letters never answer, so "no wait" cannot reject at the `n`
 * and a message starting with "y" cannot approve. The answers keep the Host
 * contract: `yes`, `no`, or `message` with the user's text.
 */
import { cardMetaOf } from "../../task/contracts/message-meta.js";
import type { AskMessage, AskResponse, AskType } from "../../task/contracts/messages.js";

export type AskChoice =
  | { kind: "answer"; label: string; response: AskResponse }
  /** Opens a text input; what the user types goes back as a `message`. */
  | { kind: "reply"; label: string };

export const replyLabel = "Tell cairn what to do instead";

const approvals: ReadonlySet<AskType> = new Set(["tool", "command", "use_mcp_server"]);

/** Questions answered by typing (a follow-up's own options, the completion, the plan), not from a menu. */
const typedAsks: ReadonlySet<AskType> = new Set(["followup", "completion_result", "plan_mode_respond"]);

const yes: AskChoice = { kind: "answer", label: "Yes", response: { response: "yes" } };
const no: AskChoice = { kind: "answer", label: "No", response: { response: "no" } };
const reply: AskChoice = { kind: "reply", label: replyLabel };

/** The menu of `ask`, or undefined when it is answered by typing. */
export function askChoices(ask: AskMessage): AskChoice[] | undefined {
  if (typedAsks.has(ask.ask)) return undefined;
  if (approvals.has(ask.ask)) {
    // The approval policy reads the text "always" as "yes, and save the suggested rule" (src/tools/approval.ts).
    const rule = cardMetaOf(ask)?.suggestedRule;
    const always: AskChoice[] = rule === undefined ? [] : [{ kind: "answer", label: `Yes, and always allow ${rule}`, response: { response: "yes", text: "always" } }];
    return [yes, ...always, no, reply];
  }
  switch (ask.ask) {
    case "api_req_failed":
      // A retry carries no message to the model: there is nothing to tell it here.
      return [
        { kind: "answer", label: "Retry", response: { response: "yes" } },
        { kind: "answer", label: "Stop the task", response: { response: "no" } },
      ];
    case "mistake_limit_reached":
      return [
        { kind: "answer", label: "Continue", response: { response: "yes" } },
        { kind: "answer", label: "Stop the task", response: { response: "no" } },
        reply,
      ];
    default:
      return [yes, no, reply];
  }
}

/** Where the reply choice is in the menu (-1: it has none, and typing answers nothing). */
export function replyChoiceIndex(choices: readonly AskChoice[]): number {
  return choices.findIndex((choice) => choice.kind === "reply");
}
