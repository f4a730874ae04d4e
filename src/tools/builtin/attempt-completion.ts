/** attempt_completion: presents the result; the user accepts it (the task ends) or gives feedback. */
import type { ToolMetaOf } from "../../task/contracts/message-meta.js";
import { success } from "../responses.js";
import type { ToolDefinition } from "../tool-definition.js";

export const attemptCompletionTool: ToolDefinition = {
  name: "attempt_completion",
  description:
    "Present the result of your work once the task is done and every tool result so far confirmed success. " +
    "State the result as final, without ending in a question or an offer of more help. The user may accept " +
    "it or reply with feedback, which you then address.",
  parameters: [
    { name: "result", required: true, description: "What you did and what the user now has.", usage: "Your final result description here" },
    { name: "command", required: false, description: "A command that shows the result (e.g. opening a page); shown to the user, not run.", usage: "Command to demonstrate result (optional)" },
  ],
  readOnly: true,
  modes: ["act"],
  partialSayType: "completion_result",
  describePartial(params) {
    return { text: params["result"] ?? "", meta: { tool: "attempt_completion" } };
  },
  async execute(params, runtime) {
    const result = params["result"] ?? "";
    const command = params["command"]?.trim();
    const meta: ToolMetaOf<"attempt_completion"> = { tool: "attempt_completion", ...(command ? { command } : {}) };
    runtime.context.say("completion_result", result, { partial: false, key: runtime.callId, meta });
    // A subagent reports to its parent, which reads the result; headless, nobody reviews it: nobody is asked.
    if (runtime.options.yes || runtime.options.subagent !== undefined || runtime.options.headless === true) return { ...success("The result was presented; the task is complete."), completed: true };
    const answer = await runtime.context.ask("completion_result", "", { meta });
    const feedback = answer.text?.trim() ?? "";
    if (answer.response === "yes" && feedback === "") return { ...success("The user accepted the result; the task is complete."), completed: true };
    if (feedback === "") {
      return success("The user is not satisfied with the result but said nothing more. Find out what is missing (ask_followup_question) and continue.");
    }
    return success(`The user gave feedback on the result. Address it, then use attempt_completion again.\n<feedback>\n${feedback}\n</feedback>`);
  },
};
