/**
 * How a run of a session ended, as `cairn run` reports it in its last line and
 * the SDK in its result event (docs/json-events.md `resultLine`).
 */
import type { TaskResult } from "../task/task.js";
import { taskSpending, type SpendingSource } from "./task-spending.js";
import type { JudgeTotals } from "../tools/auto-mode/judge-contract.js";

/** What the task's subagents spent: part of the summary's totals, said apart. */
export interface SubagentSummary {
  count: number;
  tokensIn: number;
  tokensOut: number;
  cost: number;
}

/** What `cairn run` reports when the task ends (#11): the last line of its output. */
export interface RunSummary {
  taskId: string;
  status: TaskResult["status"];
  exitStatus: number;
  /** Requests to the model in this run (the parent's own). */
  turns: number;
  /** Totals of the whole task, across resumes, its subagents' included. */
  tokensIn: number;
  tokensOut: number;
  cost: number;
  /** Actions of this run that did not run because they were refused (see `RefusalCounter`). */
  refused: number;
  /** The subagents' part of the totals, when the task had any. */
  subagents?: SubagentSummary;
  /** Auto mode's judge in this run (its own budget, not part of the totals above), when auto mode was on. */
  autoMode?: JudgeTotals;
  durationMs: number;
  error?: string;
}

/** The exit status of a task's outcome: 0 completed, 1 failed, 3 stopped by a budget (#14), 130 interrupted. */
export function exitStatusFor(result: TaskResult): number {
  switch (result.status) {
    case "completed":
      return 0;
    case "aborted":
      return 130;
    case "budget":
      return 3;
    default:
      return 1;
  }
}

/** The summary of a run that ended with `result`: the whole task's totals (its subagents' included, said apart). */
export function runSummary(options: {
  session: SpendingSource & { taskId: string; task: { requestCount: number }; autoModeTotals?: () => JudgeTotals | undefined };
  result: TaskResult;
  startedAt: number;
  refused: number;
}): RunSummary {
  const { session, result } = options;
  const { subagents, ...whole } = taskSpending(session);
  const autoMode = session.autoModeTotals?.();
  return {
    taskId: session.taskId,
    status: result.status,
    exitStatus: exitStatusFor(result),
    turns: session.task.requestCount,
    ...whole,
    refused: options.refused,
    ...(subagents.count === 0 ? {} : { subagents }),
    ...(autoMode === undefined ? {} : { autoMode }),
    durationMs: Date.now() - options.startedAt,
    ...(result.error === undefined ? {} : { error: result.error }),
  };
}
