/**
 * The task's budget seam for model requests (#14, #36): the one path every
 * request takes, the loop's own (task.ts) and compaction's summary requests
 * (src/context, through `ConversationAccess.summaryRequest`). Before it, the
 * task's budgets (`TaskOptions.budget`) and then the spend caps across tasks
 * (`TaskOptions.spendCap`) may refuse it; after it, what it cost is charged to
 * the spend caps, also when it failed midway. Its tokens and cost count in the
 * task's usage, which is what the budgets read.
 */
import type { UsageChunk } from "../llm/types.js";
import type { TaskOptions } from "./contracts/task-options.js";
import { BudgetExceededError } from "./errors.js";
import type { UsageCounter } from "./usage-counter.js";

export class RequestBudget {
  constructor(
    private readonly limits: Pick<TaskOptions, "budget" | "spendCap">,
    private readonly usage: UsageCounter,
  ) {}

  /**
   * Runs `request` unless a budget or spend cap refuses it (then BudgetExceededError, whose
   * message names the limit); afterwards charges `cost()` to the spend caps (by default the
   * cost of the usage counter's round: a request of the loop).
   */
  async charged<T>(request: () => Promise<T>, cost: () => number = () => this.usage.roundSummary().cost): Promise<T> {
    const refused = this.limits.budget?.beforeRequest(this.usage.totals()) ?? (await this.limits.spendCap?.beforeRequest());
    if (refused !== undefined) throw new BudgetExceededError(refused);
    try {
      return await request();
    } finally {
      await this.limits.spendCap?.charge(cost());
    }
  }

  /** A summary request: `send` reports its usage chunks, which count in the task's usage and in what is charged. */
  summaryRequest<T>(send: (addUsage: (chunk: UsageChunk) => void) => Promise<T>): Promise<T> {
    let cost = 0;
    return this.charged(
      () => send((chunk) => (cost += this.usage.add(chunk))),
      () => cost,
    );
  }
}
