/** update_checklist (native protocol): the model's checklist of the task's steps, shown pinned to the user. */
import { checklistToolName } from "../../context/tool-history.js";
import { invalidParameter, success } from "../responses.js";
import type { ToolDefinition } from "../tool-definition.js";
import { reportChecklist } from "../task-progress.js";

export const updateChecklistTool: ToolDefinition = {
  name: checklistToolName,
  description:
    "Set the task's checklist: a markdown list of its steps, `- [x]` for done and `- [ ]` for open. Call it near the start of a task " +
    "with more than one step and again whenever you finish a step or the plan changes, giving the whole list each time. " +
    "The user sees the list, and it is kept when the conversation is condensed.",
  parameters: [{ name: "checklist", required: true, description: "The whole checklist in markdown, one `- [ ]` or `- [x]` line per step.", usage: "- [x] First step\n- [ ] Second step" }],
  readOnly: true,
  isAvailable: (options) => options.protocol === "native",
  async execute(params, runtime) {
    const markdown = params["checklist"] ?? "";
    if (!reportChecklist(markdown, runtime.context)) {
      return invalidParameter({ tool: checklistToolName, parameter: "checklist", problem: "it holds no `- [ ] step` or `- [x] step` lines" });
    }
    return success("The checklist was updated.");
  },
};
