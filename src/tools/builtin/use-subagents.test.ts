import { describe, expect, it } from "vitest";
import { formatReport, parseSubagentCalls } from "./use-subagents.js";

describe("use_subagents reads its children from a JSON array and reports on each", () => {
  const known = ["explore", "general", "doc-reader"];

  it("reads a JSON array of {prompt, agent}; agent defaults to general", () => {
    expect(parseSubagentCalls('[{"prompt": "find X", "agent": "explore"}, {"prompt": "fix Y"}]', known)).toEqual([
      { prompt: "find X", agent: "explore" },
      { prompt: "fix Y", agent: "general" },
    ]);
  });

  it("says exactly what is wrong: not JSON, empty, no prompt, unknown agent type (listing the known ones)", () => {
    expect(parseSubagentCalls("find X", known)).toEqual({ problem: expect.stringContaining("JSON array") });
    expect(parseSubagentCalls("[]", known)).toEqual({ problem: expect.stringContaining("non-empty") });
    expect(parseSubagentCalls('[{"agent": "explore"}]', known)).toEqual({ problem: 'item 1 has no "prompt" text.' });
    expect(parseSubagentCalls('[{"prompt": "a", "agent": "planner"}]', known)).toEqual({
      problem: 'item 1 names the agent type "planner", which does not exist; the types are: explore, general, doc-reader.',
    });
  });

  it("a report carries the child's result, status, tokens and cost; a child that did not complete says why", () => {
    const base = { subagentId: "explore-1", agent: "explore", taskId: "t1", tokensIn: 120, tokensOut: 30, cost: 0.0012 };
    expect(formatReport({ ...base, status: "completed", result: "found it" })).toBe(
      '<subagent id="explore-1" agent="explore" task="t1" status="completed" tokens_in="120" tokens_out="30" cost="0.0012">\nfound it\n</subagent>',
    );
    expect(formatReport({ ...base, status: "budget", error: "Budget reached: --max-tokens 100" })).toContain("The subagent did not complete (budget): Budget reached: --max-tokens 100");
  });

  it("a report says how many of the child's actions were refused, whatever the child itself reports", () => {
    const base = { subagentId: "general-2", agent: "general", taskId: "t2", tokensIn: 120, tokensOut: 30, cost: 0.0012, status: "completed" as const, result: "all done" };
    expect(formatReport({ ...base, refused: 2 })).toBe('<subagent id="general-2" agent="general" task="t2" status="completed" tokens_in="120" tokens_out="30" cost="0.0012" refused="2">\nall done\n</subagent>');
    expect(formatReport(base)).not.toContain("refused");
  });
});
