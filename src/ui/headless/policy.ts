/**
 * What a headless run answers when nobody can: under `--yes`, and when stdin
 * is closed or silent under `--on-ask deny`.
 */
import type { AskResponse, AskType } from "../../task/contracts/messages.js";

export const noAnswerAvailable = "No answer is available: cairn is running headless and nobody can reply. Proceed on your own judgement.";

/**
 * `deny` refuses what needs approval but never traps the task: a finished task
 * is accepted (the alternative would loop), a question gets "decide yourself",
 * and failures are not retried. `yes` differs only by approving what it can.
 */
export function automaticAnswer(kind: AskType, mode: "deny" | "yes"): AskResponse {
  switch (kind) {
    case "tool":
    case "command":
    case "use_mcp_server":
    case "resume_task":
    case "resume_completed_task":
      return { response: mode === "yes" ? "yes" : "no" };
    case "completion_result":
      return { response: "yes" };
    case "followup":
    case "plan_mode_respond":
      return { response: "message", text: noAnswerAvailable };
    case "api_req_failed":
    case "mistake_limit_reached":
    case "empty_response":
      // Retrying unattended could loop for ever; the task ends as failed instead.
      return { response: "no" };
    case "elicitation":
      // An MCP server's form is the user's to fill: nobody made the data up, so it is declined.
      return { response: "no" };
  }
}
