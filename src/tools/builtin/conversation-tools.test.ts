import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRecordingContext, textOf } from "../test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "../test-support/test-workspace.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace();
});
afterEach(() => workspace.cleanup());

describe("ask_followup_question", () => {
  it("asks with the options and returns the answer", async () => {
    const context = createRecordingContext({ answers: [{ response: "message", text: "Use SQLite" }] });
    const outcome = await createTestExecutor(workspace).executeTool(toolCall("ask_followup_question", { question: "Which database?", options: '["PostgreSQL","SQLite"]' }), context);
    expect(context.asks[0]).toMatchObject({ type: "followup", text: "Which database?", meta: { options: ["PostgreSQL", "SQLite"] } });
    expect(textOf(outcome.content)).toBe("<answer>\nUse SQLite\n</answer>");
  });

  it("rejects options that are not a JSON array of strings", async () => {
    const outcome = await createTestExecutor(workspace).executeTool(toolCall("ask_followup_question", { question: "Q?", options: "a, b" }), createRecordingContext());
    expect(outcome.status).toBe("mistake");
    expect(textOf(outcome.content)).toContain("JSON array of strings");
  });

  it("in --yes mode tells the model to proceed on its own judgement without asking", async () => {
    const context = createRecordingContext();
    const outcome = await createTestExecutor(workspace, { yes: true }).executeTool(toolCall("ask_followup_question", { question: "Q?" }), context);
    expect(context.asks).toEqual([]);
    expect(context.says).toEqual([{ type: "tool", text: "Q?", partial: false, key: expect.any(String), meta: { tool: "ask_followup_question", unanswered: true } }]);
    expect(textOf(outcome.content)).toContain("Proceed on your own best judgement");
  });
});

describe("attempt_completion", () => {
  it("shows the result and completes when the user accepts", async () => {
    const context = createRecordingContext({ answers: [{ response: "yes" }] });
    const outcome = await createTestExecutor(workspace).executeTool(toolCall("attempt_completion", { result: "Added the login page." }), context);
    expect(context.says.at(-1)).toMatchObject({ type: "completion_result", text: "Added the login page." });
    expect(context.asks[0]?.type).toBe("completion_result");
    expect(outcome.completed).toBe(true);
  });

  it("a message from the user continues the task with that feedback", async () => {
    const context = createRecordingContext({ answers: [{ response: "message", text: "also add logout" }] });
    const outcome = await createTestExecutor(workspace).executeTool(toolCall("attempt_completion", { result: "Done." }), context);
    expect(outcome.status).toBe("success");
    expect(outcome.completed).not.toBe(true);
    expect(textOf(outcome.content)).toContain("also add logout");
  });

  it("completes without asking in --yes mode, and is not offered in plan mode", async () => {
    const context = createRecordingContext();
    const outcome = await createTestExecutor(workspace, { yes: true }).executeTool(toolCall("attempt_completion", { result: "Done." }), context);
    expect(outcome.completed).toBe(true);
    expect(context.asks).toEqual([]);
    const inPlan = await createTestExecutor(workspace).executeTool(toolCall("attempt_completion", { result: "Done." }), createRecordingContext({ mode: "plan" }));
    expect(inPlan.status).toBe("mistake");
  });
});

describe("plan_mode_respond", () => {
  it("returns the user's message and stays in plan mode", async () => {
    const context = createRecordingContext({ mode: "plan", answers: [{ response: "message", text: "what about tests?" }] });
    const outcome = await createTestExecutor(workspace).executeTool(toolCall("plan_mode_respond", { response: "Plan: 1. 2. 3." }), context);
    expect(context.asks[0]).toMatchObject({ type: "plan_mode_respond", text: "Plan: 1. 2. 3." });
    expect(textOf(outcome.content)).toContain("what about tests?");
    expect(outcome.switchMode).toBeUndefined();
  });

  it("an answer of yes approves the plan and switches to act mode", async () => {
    const context = createRecordingContext({ mode: "plan", answers: [{ response: "yes" }] });
    const outcome = await createTestExecutor(workspace).executeTool(toolCall("plan_mode_respond", { response: "Plan" }), context);
    expect(outcome.switchMode).toBe("act");
    expect(textOf(outcome.content)).toContain("ACT MODE");
  });

  it("is only available in plan mode", async () => {
    const outcome = await createTestExecutor(workspace).executeTool(toolCall("plan_mode_respond", { response: "x" }), createRecordingContext());
    expect(outcome.status).toBe("mistake");
    expect(textOf(outcome.content)).toContain("only available in PLAN MODE");
  });
});

describe("new_task", () => {
  it("asks the user and completes with the context", async () => {
    const context = createRecordingContext({ answers: [{ response: "yes" }] });
    const outcome = await createTestExecutor(workspace).executeTool(toolCall("new_task", { context: "Goal: X. Done: Y." }), context);
    expect(context.asks[0]?.meta).toMatchObject({ tool: "new_task", context: "Goal: X. Done: Y." });
    expect(outcome).toMatchObject({ status: "success", completed: true, content: "Goal: X. Done: Y." });
  });

  it("a refusal keeps the task going", async () => {
    const outcome = await createTestExecutor(workspace).executeTool(toolCall("new_task", { context: "c" }), createRecordingContext({ answers: [{ response: "no" }] }));
    expect(outcome.status).toBe("rejected");
    expect(outcome.completed).toBeUndefined();
  });
});
