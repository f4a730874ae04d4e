/** The line the terminal UI shows when a task step ends (src/cli/interactive.ts, and `cairn attach` at a task's result). */
import type { TaskResult } from "../task/task.js";
import { subagentsPart } from "../session/task-spending.js";
import type { TaskSpending } from "../session/task-spending.js";

function formatDuration(milliseconds: number): string {
  const seconds = Math.round(milliseconds / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}

/** The line shown when a task step ends: how it ended, how long, the task's tokens and cost (its subagents' part said apart). */
export function endOfTaskSummary(options: { result: TaskResult; elapsedMs: number; spent: TaskSpending }): string {
  const { spent } = options;
  const outcome = options.result.status === "completed" ? "Done" : options.result.status === "aborted" ? "Stopped" : "Failed";
  const cost = `$${spent.cost.toFixed(spent.cost < 1 ? 4 : 2)}`;
  const subagents = subagentsPart(spent.subagents);
  return [`${outcome} in ${formatDuration(options.elapsedMs)}`, `${spent.tokensIn} tokens in, ${spent.tokensOut} out`, cost, ...(subagents === undefined ? [] : [subagents])].join(" · ");
}

/** What became of a message that no task received. */
export function notSent(typed: string, resuming: boolean): string {
  return `${resuming ? "Your message was not sent" : "Your task was not started"}: "${typed.trim()}". Press ↑ to get it back, and Enter to send it again once that is fixed.`;
}
