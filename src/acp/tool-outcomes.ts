/**
 * Reports how each tool call ended as a `tool_result` message, so an editor
 * can mark the call completed or failed. The message goes through the task's
 * own `say`, which also logs it: a session replayed later shows the same.
 */
import type { ToolExecutor, ToolOutcome } from "../task/contracts/tool-executor.js";
import { withExecuteTool } from "../task/contracts/tool-executor.js";

/** Longest result text kept in the message (the model's copy is never cut). */
const maximumResultCharacters = 4000;

export function outcomeText(outcome: ToolOutcome): string {
  const text = typeof outcome.content === "string" ? outcome.content : outcome.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");
  return text.length > maximumResultCharacters ? `${text.slice(0, maximumResultCharacters)}\n[…]` : text;
}

export function withToolOutcomes(executor: ToolExecutor): ToolExecutor {
  return withExecuteTool(executor, async (block, context) => {
    const outcome = await executor.executeTool(block, context);
    const ending = outcome.card?.end === undefined ? {} : { end: outcome.card.end, ...(outcome.card.durationMs === undefined ? {} : { durationMs: outcome.card.durationMs }) };
    const diagnostics = outcome.card?.diagnostics === undefined ? {} : { diagnostics: outcome.card.diagnostics };
    context.say("tool_result", outcomeText(outcome), { meta: { tool: block.name, status: outcome.status, ...ending, ...diagnostics } });
    return outcome;
  });
}
