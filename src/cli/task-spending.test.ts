import { describe, expect, it } from "vitest";
import { endOfTaskSummary } from "./end-of-task-summary.js";
import { taskSpending } from "../session/task-spending.js";

const session = (own: { tokensIn: number; tokensOut: number; cost: number }, subagents: { count: number; tokensIn: number; tokensOut: number; cost: number }) => ({
  task: { usage: { totals: () => own } },
  subagentTotals: () => subagents,
});

describe("a task's spending, its subagents' included", () => {
  it("adds the subagents' tokens and cost to the task's own and keeps their part apart", () => {
    const spent = taskSpending(session({ tokensIn: 20_000, tokensOut: 2_000, cost: 0.06 }, { count: 2, tokensIn: 35_000, tokensOut: 7_000, cost: 0.14 }));
    expect(spent).toMatchObject({ tokensIn: 55_000, tokensOut: 9_000, subagents: { count: 2, cost: 0.14 } });
    expect(spent.cost).toBeCloseTo(0.2, 10);
  });

  it("the terminal UI's end-of-step line counts the subagents and says their part; a task without any says nothing of them", () => {
    const withChildren = taskSpending(session({ tokensIn: 20_000, tokensOut: 2_000, cost: 0.06 }, { count: 2, tokensIn: 35_000, tokensOut: 7_000, cost: 0.14 }));
    expect(endOfTaskSummary({ result: { status: "completed" }, elapsedMs: 4_000, spent: withChildren })).toBe("Done in 4s · 55000 tokens in, 9000 out · $0.2000 · 2 subagents $0.1400");
    const alone = taskSpending(session({ tokensIn: 100, tokensOut: 10, cost: 0.0003 }, { count: 0, tokensIn: 0, tokensOut: 0, cost: 0 }));
    expect(endOfTaskSummary({ result: { status: "aborted" }, elapsedMs: 65_000, spent: alone })).toBe("Stopped in 1m 05s · 100 tokens in, 10 out · $0.0003");
  });
});
