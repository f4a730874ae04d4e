import { chmodSync, lstatSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultApprovalSettings } from "../approval.js";
import { createRecordingContext, textOf } from "../test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "../test-support/test-workspace.js";
import { stripStrayFence } from "./write-to-file.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace({ "a.txt": "one\ntwo\n", ".cairnignore": "secret.env\n" });
});
afterEach(() => workspace.cleanup());

describe("write_to_file", () => {
  it("asks with a unified diff, then writes and reports a summary", async () => {
    const executor = createTestExecutor(workspace);
    const context = createRecordingContext({ answers: [{ response: "yes" }] });
    const outcome = await executor.executeTool(toolCall("write_to_file", { path: "a.txt", content: "one\nTWO\nthree\n" }), context);
    expect(outcome.status).toBe("success");
    expect(textOf(outcome.content)).toContain("Updated a.txt: 3 lines");
    expect(context.asks).toHaveLength(1);
    const diff = String(context.asks[0]?.meta?.["diff"]);
    expect(diff).toContain("-two");
    expect(diff).toContain("+TWO");
    expect(diff).toContain("+three");
    expect(context.mutations).toBe(1);
    expect(readFileSync(workspace.path("a.txt"), "utf8")).toBe("one\nTWO\nthree\n");
  });

  it("creates parent folders for a new file and leaves no temporary files", async () => {
    const executor = createTestExecutor(workspace, { approval: { ...defaultApprovalSettings, editInside: true } });
    const context = createRecordingContext();
    const outcome = await executor.executeTool(toolCall("write_to_file", { path: "deep/er/new.ts", content: "export {};\n" }), context);
    expect(textOf(outcome.content)).toContain("Created deep/er/new.ts");
    expect(context.asks).toEqual([]);
    expect(readFileSync(workspace.path("deep/er/new.ts"), "utf8")).toBe("export {};\n");
    expect(readdirSync(workspace.path("deep/er"))).toEqual(["new.ts"]);
  });

  it("writing through a link changes the linked file and keeps the link", async () => {
    symlinkSync(workspace.path("a.txt"), workspace.path("alias.txt"));
    const executor = createTestExecutor(workspace, { yes: true });
    await executor.executeTool(toolCall("write_to_file", { path: "alias.txt", content: "via link\n" }), createRecordingContext());
    expect(lstatSync(workspace.path("alias.txt")).isSymbolicLink()).toBe(true);
    expect(readFileSync(workspace.path("a.txt"), "utf8")).toBe("via link\n");
  });

  it("keeps the mode of an existing file", async () => {
    workspace.write("run.sh", "#!/bin/sh\necho hi\n");
    chmodSync(workspace.path("run.sh"), 0o755);
    const executor = createTestExecutor(workspace, { yes: true });
    await executor.executeTool(toolCall("write_to_file", { path: "run.sh", content: "#!/bin/sh\necho bye\n" }), createRecordingContext());
    expect(statSync(workspace.path("run.sh")).mode & 0o777).toBe(0o755);
  });

  it("strips a stray code fence around the whole content", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    const outcome = await executor.executeTool(toolCall("write_to_file", { path: "b.py", content: "```python\nprint(1)\n```" }), createRecordingContext());
    expect(readFileSync(workspace.path("b.py"), "utf8")).toBe("print(1)\n");
    expect(textOf(outcome.content)).toContain("code fence");
    expect(stripStrayFence("```\na\n```\nb\n```", "x.ts").stripped).toBe(false);
    expect(stripStrayFence("```md\n# a\n```", "x.md").stripped).toBe(false);
  });

  it("keeps CRLF line endings of an existing file", async () => {
    workspace.write("win.txt", "a\r\nb\r\n");
    const executor = createTestExecutor(workspace, { yes: true });
    await executor.executeTool(toolCall("write_to_file", { path: "win.txt", content: "a\nb\nc\n" }), createRecordingContext());
    expect(readFileSync(workspace.path("win.txt"), "utf8")).toBe("a\r\nb\r\nc\r\n");
  });

  it("allows empty content but not a missing one", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    const empty = await executor.executeTool(toolCall("write_to_file", { path: "empty.txt", content: "" }), createRecordingContext());
    expect(empty.status).toBe("success");
    expect(readFileSync(workspace.path("empty.txt"), "utf8")).toBe("");
    const missing = await executor.executeTool(toolCall("write_to_file", { path: "x.txt" }), createRecordingContext());
    expect(missing.status).toBe("mistake");
    expect(textOf(missing.content)).toContain("'content'");
  });

  it("a rejection with a message writes nothing and passes the message on", async () => {
    const executor = createTestExecutor(workspace);
    const context = createRecordingContext({ answers: [{ response: "message", text: "use tabs" }] });
    const outcome = await executor.executeTool(toolCall("write_to_file", { path: "a.txt", content: "x\n" }), context);
    expect(outcome.status).toBe("rejected");
    expect(textOf(outcome.content)).toContain("use tabs");
    expect(readFileSync(workspace.path("a.txt"), "utf8")).toBe("one\ntwo\n");
    expect(context.mutations).toBe(0);
  });

  it("in --yes mode refuses to write outside the workspace without --allow-outside-writes", async () => {
    const outside = join(workspace.base, "outside.txt");
    const refused = await createTestExecutor(workspace, { yes: true }).executeTool(toolCall("write_to_file", { path: outside, content: "x\n" }), createRecordingContext());
    expect(refused.status).toBe("error");
    expect(textOf(refused.content)).toContain("--allow-outside-writes");
    expect(() => readFileSync(outside)).toThrow();
    const allowed = await createTestExecutor(workspace, { yes: true, allowOutsideWrites: true }).executeTool(toolCall("write_to_file", { path: outside, content: "x\n" }), createRecordingContext());
    expect(allowed.status).toBe("success");
    expect(readFileSync(outside, "utf8")).toBe("x\n");
  });

  it("asks before writing outside even when edits inside are auto-approved", async () => {
    const executor = createTestExecutor(workspace, { approval: { ...defaultApprovalSettings, editInside: true } });
    const context = createRecordingContext({ answers: [{ response: "no" }] });
    const outcome = await executor.executeTool(toolCall("write_to_file", { path: "../x.txt", content: "x\n" }), context);
    expect(outcome.status).toBe("rejected");
    expect(context.asks[0]?.meta?.["outsideWorkspace"]).toBe(true);
  });

  it("refuses ignored files and binary files", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    const ignored = await executor.executeTool(toolCall("write_to_file", { path: "secret.env", content: "x" }), createRecordingContext());
    expect(textOf(ignored.content)).toContain(".cairnignore");
    writeFileSync(workspace.path("blob.dat"), Buffer.from([1, 0, 2]));
    const binary = await executor.executeTool(toolCall("write_to_file", { path: "blob.dat", content: "x" }), createRecordingContext());
    expect(textOf(binary.content)).toContain("binary");
    expect(readFileSync(workspace.path("blob.dat"))).toEqual(Buffer.from([1, 0, 2]));
  });

  it("is refused in plan mode with a pointer to plan_mode_respond", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    const outcome = await executor.executeTool(toolCall("write_to_file", { path: "a.txt", content: "x" }), createRecordingContext({ mode: "plan" }));
    expect(outcome.status).toBe("mistake");
    expect(textOf(outcome.content)).toContain("plan_mode_respond");
    expect(readFileSync(workspace.path("a.txt"), "utf8")).toBe("one\ntwo\n");
  });
});
