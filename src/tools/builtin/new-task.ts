/** new_task: offers to start a fresh task carrying the given context; accepting ends this one. */
import type { ToolMetaOf } from "../../task/contracts/message-meta.js";
import { denied, success } from "../responses.js";
import type { ToolDefinition } from "../tool-definition.js";

export const newTaskTool: ToolDefinition = {
  name: "new_task",
  description:
    "Offer the user to continue in a new task with a fresh context, carrying over a summary. Use it when the " +
    "conversation has grown long. The context must hold everything the new task needs: the goal, what is done, " +
    "what remains, and the relevant files and decisions.",
  parameters: [{ name: "context", required: true, description: "The summary that starts the new task.", usage: "context to preload new task with" }],
  readOnly: true,
  // No partial presentation: the context is shown once, by the ask (or the say in --yes mode).
  async execute(params, runtime) {
    const context = params["context"] ?? "";
    const meta: ToolMetaOf<"new_task"> = { tool: "new_task", context };
    if (runtime.options.yes) {
      runtime.context.say("tool", context, { key: runtime.callId, meta });
    } else {
      const answer = await runtime.context.ask("tool", `Start a new task with this context?\n${context}`, { meta });
      if (answer.response !== "yes") return denied(answer.text);
    }
    return { ...success(context), completed: true };
  },
};
