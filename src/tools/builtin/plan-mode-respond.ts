/**
 * plan_mode_respond: in plan mode, the model's way to talk to the user.
 * Convention: an answer of "yes" approves the plan and switches to act mode;
 * a message continues the planning conversation.
 */
import { success } from "../responses.js";
import type { ToolDefinition } from "../tool-definition.js";

export const planModeRespondTool: ToolDefinition = {
  name: "plan_mode_respond",
  description:
    "PLAN MODE only: reply to the user with your questions, findings or plan. Explore with the read-only tools " +
    "first, then present a concrete plan. The user answers, or approves the plan, which switches to ACT MODE.",
  parameters: [{ name: "response", required: true, description: "Your reply or plan for the user.", usage: "Your response here" }],
  readOnly: true,
  modes: ["plan"],
  async execute(params, runtime) {
    const response = params["response"] ?? "";
    if (runtime.options.yes) {
      // Issue #12: with nobody to review it, the plan is the result; nothing is carried out
      // (`--plan --yes` asks for a plan, not for the work; run again without --plan to act).
      runtime.context.say("completion_result", response, { partial: false, meta: { tool: "plan_mode_respond" } });
      return { ...success("The plan was shown to the user as the result; plan mode ends here without acting."), completed: true };
    }
    const answer = await runtime.context.ask("plan_mode_respond", response, { meta: { tool: "plan_mode_respond" } });
    const text = answer.text?.trim() ?? "";
    if (answer.response === "yes") {
      const said = text === "" ? "" : `\nThe user added:\n<feedback>\n${text}\n</feedback>`;
      return { ...success(`The user approved the plan and switched to ACT MODE. Carry out the plan now.${said}`), switchMode: "act" };
    }
    if (text === "") return success("The user did not accept the plan. Ask what should change.");
    return success(`<user_message>\n${text}\n</user_message>`);
  },
};
