/**
 * What a task spent in all: its own requests and its subagents' (issue #17).
 * Every surface that shows a task's tokens and cost (the `cairn run` summary,
 * the terminal UI's status line, its end-of-step line and `/cost`, `cairn
 * show`) counts both, and says the subagents' part apart.
 */
import type { Totals } from "./subagents/subagent-spending.js";

export interface TaskSpending extends Totals {
  /** The subagents' part of the totals (count 0 when the task had none). */
  subagents: Totals & { count: number };
}

/** A session's task: its own usage and its subagents' (src/session/session.ts). */
export interface SpendingSource {
  task: { usage: { totals(): Totals } };
  subagentTotals(): Totals & { count: number };
}

export function taskSpending(session: SpendingSource): TaskSpending {
  const own = session.task.usage.totals();
  const subagents = session.subagentTotals();
  return { tokensIn: own.tokensIn + subagents.tokensIn, tokensOut: own.tokensOut + subagents.tokensOut, cost: own.cost + subagents.cost, subagents };
}

/** `2 subagents $0.0123`, or nothing for a task without subagents. */
export function subagentsPart(subagents: { count: number; cost: number }): string | undefined {
  return subagents.count === 0 ? undefined : `${subagents.count} subagent${subagents.count === 1 ? "" : "s"} $${subagents.cost.toFixed(4)}`;
}
