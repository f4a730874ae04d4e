/**
 * What a parent's subagents spent (issue #17): this run's spending, which the
 * budget counts (a resumed child's earlier spending is in the budget already),
 * and each child's whole spending across its runs, which the parent's summary
 * adds (src/cli/run-summary.ts).
 */
import { metaOf, type SubagentReportMeta } from "../../task/contracts/message-meta.js";
import type { UiMessage } from "../../task/contracts/messages.js";
import { addUsage, subtractUsage, zeroUsage, type UsageTotals } from "../../security/budget.js";

export type Totals = UsageTotals;

function sum(spent: Iterable<() => Totals>): Totals {
  let total = zeroUsage;
  for (const usage of spent) total = addUsage(total, usage());
  return total;
}

/** The report of a child's run its parent said (an `info` message of use_subagents). */
function subagentReportOf(message: UiMessage): SubagentReportMeta | undefined {
  const meta = metaOf(message, "info");
  return meta !== undefined && "subagentReport" in meta ? meta.subagentReport : undefined;
}

export class SubagentSpending {
  /** This run's usage of each child, live for running ones. */
  readonly #thisRun = new Map<string, () => Totals>();
  /** Each child's whole usage, by subagent id. */
  readonly #whole = new Map<string, () => Totals>();

  /** `resumedMessages`: a resumed parent's messages; what its earlier children reported counts (the last report of each). */
  constructor(resumedMessages: ReadonlyArray<UiMessage> = []) {
    for (const message of resumedMessages) {
      const report = subagentReportOf(message);
      if (report !== undefined) this.#whole.set(report.subagentId, () => ({ tokensIn: report.tokensIn, tokensOut: report.tokensOut, cost: report.cost }));
    }
  }

  /** A child running in this run: `usage` is its whole usage, `before` what it had spent when this run started. */
  running(subagentId: string, usage: () => Totals, before: Totals): void {
    this.#thisRun.set(subagentId, () => subtractUsage(usage(), before));
    this.#whole.set(subagentId, usage);
  }

  /** A child of an earlier run whose report is used again (it spends nothing now). */
  reused(subagentId: string, usage: Totals): void {
    this.#whole.set(subagentId, () => usage);
  }

  /** What the children spent in this run (running ones included): the budget counts it. */
  thisRun(): Totals {
    return sum(this.#thisRun.values());
  }

  /** How many subagents the task had and what they spent in all. */
  whole(): Totals & { count: number } {
    return { count: this.#whole.size, ...sum(this.#whole.values()) };
  }
}
