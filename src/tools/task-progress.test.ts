import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRecordingContext, textOf } from "./test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "./test-support/test-workspace.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace({ "a.txt": "a\n" });
});
afterEach(() => workspace.cleanup());

describe("the tools update and show the task checklist", () => {
  it("xml protocol: task_progress is an optional parameter of every tool; a changed list is shown as a checklist message", async () => {
    const executor = createTestExecutor(workspace);
    expect(executor.parameterNames()).toContain("task_progress");
    expect(executor.promptDescriptions("act")).toContain("Every tool accepts an optional <task_progress> parameter");
    expect(executor.toolNames()).not.toContain("update_checklist");
    const context = createRecordingContext();
    const list = "- [ ] Read a.txt\n- [ ] Report";
    const outcome = await executor.executeTool(toolCall("read_file", { path: "a.txt", task_progress: list }), context);
    expect(outcome.status).toBe("success");
    await executor.executeTool(toolCall("read_file", { path: "a.txt", task_progress: list }), context);
    await executor.executeTool(toolCall("read_file", { path: "a.txt", task_progress: "- [x] Read a.txt\n- [ ] Report" }), context);
    const checklists = context.says.filter((said) => said.type === "checklist");
    expect(checklists.map((said) => said.text)).toEqual([list, "- [x] Read a.txt\n- [ ] Report"]);
    expect(checklists[1]?.meta).toMatchObject({ done: 1, total: 2 });
  });

  it("native protocol: the update_checklist tool shows the list, and refuses text without checklist items", async () => {
    const executor = createTestExecutor(workspace, { protocol: "native" });
    expect(executor.toolSchemas("act").map((schema) => schema.name)).toContain("update_checklist");
    const context = createRecordingContext();
    const done = await executor.executeTool(toolCall("update_checklist", { checklist: "- [x] Plan\n- [ ] Build" }), context);
    expect(done.status).toBe("success");
    expect(context.says.filter((said) => said.type === "checklist").map((said) => said.text)).toEqual(["- [x] Plan\n- [ ] Build"]);
    const refused = await executor.executeTool(toolCall("update_checklist", { checklist: "just words" }), context);
    expect(refused.status).toBe("mistake");
    expect(textOf(refused.content)).toContain("checklist");
  });
});
