import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseRule, PermissionRules, type RuleDecision } from "../security/permission-rules.js";
import { defaultApprovalSettings } from "./approval.js";
import { customTool } from "./custom-tool.js";
import type { ToolExecutorOptions } from "./create-tool-executor.js";
import { createRecordingContext, textOf } from "./test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "./test-support/test-workspace.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace();
});
afterEach(() => workspace.cleanup());

function setup(options: { readOnly?: boolean; executor?: Partial<ToolExecutorOptions> } = {}) {
  const runs: string[] = [];
  const tool = customTool({
    name: "lookup_ticket",
    description: "Look up a ticket.",
    inputSchema: { id: z.string(), verbose: z.boolean().optional() },
    ...(options.readOnly !== undefined ? { readOnly: options.readOnly } : {}),
    run: ({ id }) => {
      runs.push(id);
      return `ticket ${id}`;
    },
  });
  const executor = createTestExecutor(workspace, options.executor);
  executor.registerTool(tool);
  return { executor, runs };
}

const call = () => toolCall("lookup_ticket", { id: "T-1", verbose: "true" });
const rules = (decision: RuleDecision, text = "lookup_ticket") => new PermissionRules([parseRule(text, decision, "flag (--allowed-tools)")], workspace.root);

describe("custom tools: approvals", () => {
  it("asks by default, showing the tool's name and input on its card; no means it does not run", async () => {
    const { executor, runs } = setup();
    const context = createRecordingContext({ answers: [{ response: "no", text: "not now" }] });
    const outcome = await executor.executeTool(call(), context);
    expect(outcome.status).toBe("rejected");
    expect(textOf(outcome.content)).toContain("not now");
    expect(runs).toEqual([]);
    expect(context.asks).toHaveLength(1);
    expect(context.asks[0]).toMatchObject({ type: "tool", meta: { tool: "custom_tool", name: "lookup_ticket", input: { id: "T-1", verbose: true }, approval: "ask", suggestedRule: "lookup_ticket" } });
    expect(context.asks[0]?.text).toContain('lookup_ticket\n{\n  "id": "T-1"');
  });

  it("yes runs it, and the user's words reach the model", async () => {
    const { executor, runs } = setup();
    const outcome = await executor.executeTool(call(), createRecordingContext({ answers: [{ response: "yes", text: "go ahead" }] }));
    expect(outcome.status).toBe("success");
    expect(textOf(outcome.content)).toContain("ticket T-1\n\nThe user approved this and said:");
    expect(runs).toEqual(["T-1"]);
  });

  it("--yes approves it without asking", async () => {
    const { executor, runs } = setup({ executor: { yes: true } });
    const context = createRecordingContext();
    expect((await executor.executeTool(call(), context)).status).toBe("success");
    expect(context.asks).toEqual([]);
    expect(context.says.at(-1)?.meta).toMatchObject({ tool: "custom_tool", name: "lookup_ticket", approval: "auto" });
    expect(runs).toEqual(["T-1"]);
  });

  it("readOnly is approved as reads inside the workspace are: no ask by default, an ask when reads ask", async () => {
    const auto = setup({ readOnly: true });
    const context = createRecordingContext();
    expect((await auto.executor.executeTool(call(), context)).status).toBe("success");
    expect(context.asks).toEqual([]);
    expect(auto.executor.isReadOnly("lookup_ticket")).toBe(true);
    const asking = setup({ readOnly: true, executor: { approval: { ...defaultApprovalSettings, readInside: false } } });
    const asked = createRecordingContext({ answers: [{ response: "yes" }] });
    await asking.executor.executeTool(call(), asked);
    expect(asked.asks).toHaveLength(1);
  });

  it("a rule naming the tool allows it without asking", async () => {
    const { executor, runs } = setup({ executor: { rules: rules("allow") } });
    const context = createRecordingContext();
    expect((await executor.executeTool(call(), context)).status).toBe("success");
    expect(context.asks).toEqual([]);
    expect(context.says.at(-1)?.meta).toMatchObject({ approval: "auto", reason: "the rule lookup_ticket (flag (--allowed-tools)) allows it" });
    expect(runs).toEqual(["T-1"]);
  });

  it("a deny rule refuses it, even under --yes; a rule for another name does not apply", async () => {
    const denied = setup({ executor: { yes: true, rules: rules("deny", "lookup_ticket(*)") } });
    const outcome = await denied.executor.executeTool(call(), createRecordingContext());
    expect(outcome.status).toBe("error");
    expect(textOf(outcome.content)).toContain("cairn refused this: the rule lookup_ticket(*) (flag (--allowed-tools)) denies it");
    expect(denied.runs).toEqual([]);
    const other = setup({ executor: { rules: rules("deny", "lookup_tickets") } });
    const context = createRecordingContext({ answers: [{ response: "yes" }] });
    expect((await other.executor.executeTool(call(), context)).status).toBe("success");
    expect(context.asks).toHaveLength(1);
  });

  it("an ask rule asks even under --yes", async () => {
    const { executor } = setup({ executor: { yes: true, rules: rules("ask") } });
    const context = createRecordingContext({ answers: [{ response: "yes" }] });
    expect((await executor.executeTool(call(), context)).status).toBe("success");
    expect(context.asks[0]?.meta).toMatchObject({ explicitApproval: true });
  });

  it("answering always allows the tool by name from then on", async () => {
    const { executor, runs } = setup();
    const first = createRecordingContext({ answers: [{ response: "yes", text: "always" }] });
    await executor.executeTool(call(), first);
    const second = createRecordingContext();
    await executor.executeTool(call(), second);
    expect(second.asks).toEqual([]);
    expect(runs).toEqual(["T-1", "T-1"]);
  });

  it("plan mode: a tool that is not read-only is neither offered nor run; a read-only one is", async () => {
    const changing = setup({ executor: { yes: true } });
    expect(changing.executor.toolSchemas("plan").map((schema) => schema.name)).not.toContain("lookup_ticket");
    expect(changing.executor.promptDescriptions("plan")).not.toContain("## lookup_ticket");
    const outcome = await changing.executor.executeTool(call(), createRecordingContext({ mode: "plan" }));
    expect(outcome.status).toBe("mistake");
    expect(textOf(outcome.content)).toContain("lookup_ticket changes the workspace and cannot be used in PLAN MODE");
    expect(changing.runs).toEqual([]);
    const reading = setup({ readOnly: true });
    expect(reading.executor.toolSchemas("plan").map((schema) => schema.name)).toContain("lookup_ticket");
    expect((await reading.executor.executeTool(call(), createRecordingContext({ mode: "plan" }))).status).toBe("success");
  });

  it("a PreToolUse hook's allow lifts the ask, as for other tools", async () => {
    const { executor, runs } = setup();
    const context = { ...createRecordingContext(), hookApproval: "allow" as const };
    expect((await executor.executeTool(call(), context)).status).toBe("success");
    expect(runs).toEqual(["T-1"]);
  });
});
