/**
 * The task checklist (Cline's focus chain): in the xml protocol an optional
 * `task_progress` parameter on every tool, in the native protocol the
 * `update_checklist` tool. Either way the list is shown as a `checklist` message.
 */
import { formatChecklist, parseChecklist } from "../context/checklist.js";
import { taskProgressParameter } from "../context/tool-history.js";
import type { ToolCallContext } from "../task/contracts/tool-executor.js";

export { taskProgressParameter };

export const taskProgressSection = `# Task progress checklist

Every tool accepts an optional <${taskProgressParameter}> parameter: a markdown checklist of the task's steps, for example
<${taskProgressParameter}>
- [x] Read the failing test
- [ ] Fix the parser
- [ ] Run the tests
</${taskProgressParameter}>
Give it with your first tool call, and again whenever you finish a step or the plan changes (the whole list each time). Keep it short: one line per step.`;

/** Shows the checklist the model just set; returns false when the text holds no checklist items. */
export function reportChecklist(markdown: string, context: Pick<ToolCallContext, "say">): boolean {
  const items = parseChecklist(markdown);
  if (items.length === 0) return false;
  const done = items.filter((item) => item.done).length;
  context.say("checklist", formatChecklist(items), { meta: { items, done, total: items.length } });
  return true;
}

/**
 * For `task_progress`: the model may repeat the same list with every tool call; only a
 * changed list is shown again.
 */
export function checklistReporter(): (markdown: string, context: Pick<ToolCallContext, "say">) => void {
  let last: string | undefined;
  return (markdown, context) => {
    const normalised = formatChecklist(parseChecklist(markdown));
    if (normalised === last) return;
    if (reportChecklist(markdown, context)) last = normalised;
  };
}
