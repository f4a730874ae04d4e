/**
 * The choices of a question that is answered from a menu (approvals and the
 * other yes/no questions). A menu is answered by a number, or by the arrows
 * and Enter: typed letters never answer, so "no wait" cannot reject at the `n`
 * and a message starting with "y" cannot approve. The answers keep the Host
 * contract: `yes`, `no`, or `message`, with the user's text where there is one.
 */
import { cardMetaOf } from "../../task/contracts/message-meta.js";
import type { AskMessage, AskResponse, AskType } from "../../task/contracts/messages.js";

export type AskChoice =
  | { kind: "answer"; label: string; response: AskResponse }
  /** Opens a text input; what the user types goes back with `response`. */
  | { kind: "reply"; label: string; response: "no" | "message" };

export const replyLabel = "Tell cairn what to do instead";

const approvals: ReadonlySet<AskType> = new Set(["tool", "command", "use_mcp_server"]);

/** Questions answered by typing (a follow-up's own options, the completion, the plan), not from a menu. */
const typedAsks: ReadonlySet<AskType> = new Set(["followup", "completion_result", "plan_mode_respond", "elicitation"]);

const yes: AskChoice = { kind: "answer", label: "Yes", response: { response: "yes" } };
const no: AskChoice = { kind: "answer", label: "No", response: { response: "no" } };
/** A command's approval may offer a preview (#30): a "no" to anything that does not know it. */
const previewChoice: AskChoice = { kind: "answer", label: "Preview what it would change (nothing lands until you apply)", response: { response: "no", preview: true } };
/**
 * To an approval, the reply is a "no" with the user's text: the call does not run
 * and the model gets the text, and no typed text can approve it (the policy reads a
 * `message` of "always" as a yes, src/tools/approval.ts).
 */
const rejectWithReply: AskChoice = { kind: "reply", label: replyLabel, response: "no" };
/** To other questions (guidance at the mistake limit), the reply is the user's message. */
const reply: AskChoice = { kind: "reply", label: replyLabel, response: "message" };

/** The menu of `ask`, or undefined when it is answered by typing. */
export function askChoices(ask: AskMessage): AskChoice[] | undefined {
  if (typedAsks.has(ask.ask)) return undefined;
  if (approvals.has(ask.ask)) {
    // A choice, not a message: the answer carries no text, so nothing is shown or logged as the user's words.
    const rule = cardMetaOf(ask)?.suggestedRule;
    const always: AskChoice[] = rule === undefined ? [] : [{ kind: "answer", label: `Yes, and always allow ${rule}`, response: { response: "yes", always: "user" } }];
    const meta = cardMetaOf(ask);
    const preview: AskChoice[] = meta !== undefined && "previewable" in meta && meta.previewable === true ? [previewChoice] : [];
    return [yes, ...always, ...preview, no, rejectWithReply];
  }
  switch (ask.ask) {
    case "api_req_failed":
      // A retry carries no message to the model: there is nothing to tell it here.
      return [
        { kind: "answer", label: "Retry", response: { response: "yes" } },
        { kind: "answer", label: "Stop the task", response: { response: "no" } },
      ];
    case "mistake_limit_reached":
      return [{ kind: "answer", label: "Continue", response: { response: "yes" } }, { kind: "answer", label: "Stop the task", response: { response: "no" } }, reply];
    default:
      return [yes, no, reply];
  }
}

/** The menu's reply choice, if it has one (without one, typing answers nothing). */
export function replyChoice(choices: readonly AskChoice[]): Extract<AskChoice, { kind: "reply" }> | undefined {
  return choices.find((choice): choice is Extract<AskChoice, { kind: "reply" }> => choice.kind === "reply");
}
