import { describe, expect, it } from "vitest";
import { TaskBudget, countSoFar } from "./budget.js";

describe("budgets stop the task at each limit and count across resumes", () => {
  const none = { tokensIn: 0, tokensOut: 0, cost: 0 };

  it("stops at each limit with a message naming it, and stays stopped", () => {
    const requests = new TaskBudget({ maxRequests: 2 });
    expect(requests.beforeRequest(none)).toBeUndefined();
    expect(requests.beforeRequest(none)).toBeUndefined();
    expect(requests.beforeRequest(none)).toMatch(/--max-requests 2 \(2 requests made\)/);
    expect(new TaskBudget({ maxTokens: 100 }).beforeRequest({ tokensIn: 80, tokensOut: 30, cost: 0 })).toMatch(/--max-tokens 100/);
    expect(new TaskBudget({ maxCost: 0.5 }).beforeRequest({ tokensIn: 0, tokensOut: 0, cost: 0.51 })).toMatch(/--max-cost 0.5/);
    let now = 0;
    const time = new TaskBudget({ maxTime: 10 }, { now: () => now });
    expect(time.beforeToolCall()).toBeUndefined();
    now = 11_000;
    expect(time.beforeRequest(none)).toMatch(/--max-time 10s/);
    const tools = new TaskBudget({ maxToolCalls: 1 });
    expect(tools.beforeToolCall()).toBeUndefined();
    expect(tools.beforeToolCall()).toMatch(/--max-tool-calls 1/);
    expect(tools.beforeRequest(none)).toMatch(/--max-tool-calls 1/);
  });

  it("counts what a resumed task already used, and shows what is left", () => {
    const soFar = countSoFar([
      { type: "say", say: "api_req_started" },
      { type: "say", say: "command" },
      { type: "say", say: "api_req_started" },
      { type: "say", say: "tool", partial: true },
      { type: "ask", ask: "tool" },
      { type: "say", say: "completion_result" },
      { type: "ask", ask: "completion_result" },
      { type: "ask", ask: "followup" },
    ]);
    // An asked tool also said "tool" (counted once); attempt_completion and ask_followup_question count, as they do live.
    expect(soFar).toEqual({ requestsSoFar: 2, toolCallsSoFar: 3 });
    const budget = new TaskBudget({ maxRequests: 3, maxToolCalls: 5 }, soFar);
    expect(budget.remaining(none)).toBe("budget left: 1 requests, 2 tool calls");
    expect(budget.beforeRequest(none)).toBeUndefined();
    expect(budget.beforeRequest(none)).toMatch(/--max-requests 3/);
  });

  it("a resumed task goes on from its earlier runs: their time, summary requests and subagents' spending count", () => {
    let now = 0;
    const time = new TaskBudget({ maxTime: 10 }, { elapsedMsSoFar: 9_000, now: () => now });
    expect(time.remaining(none)).toBe("budget left: 1 s");
    expect(time.beforeRequest(none)).toBeUndefined();
    now = 1_000;
    expect(time.beforeRequest(none)).toMatch(/--max-time 10s \(10 s elapsed\)/);
    expect(
      countSoFar([
        { type: "say", say: "api_req_started" },
        { type: "say", say: "condense", meta: { summaryRequests: { requests: 2 } } },
      ]),
    ).toEqual({ requestsSoFar: 3, toolCallsSoFar: 0 });
    const children = new TaskBudget({ maxTokens: 100 }, { usageSoFar: { tokensIn: 60, tokensOut: 30, cost: 0 } });
    expect(children.remaining({ tokensIn: 5, tokensOut: 0, cost: 0 })).toBe("budget left: 5 tokens");
    expect(children.beforeRequest({ tokensIn: 10, tokensOut: 0, cost: 0 })).toMatch(/--max-tokens 100 \(100 tokens used\)/);
  });
});
