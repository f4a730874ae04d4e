import { symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRecordingContext, textOf } from "../test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "../test-support/test-workspace.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace({ "a.txt": "one\ntwo\nthree\n", ".cairnignore": "secret.env\n", "secret.env": "KEY=1\n" });
});
afterEach(() => workspace.cleanup());

async function read(params: Record<string, string>, answers = [] as Parameters<typeof createRecordingContext>[0]) {
  const executor = createTestExecutor(workspace);
  const context = createRecordingContext(answers);
  const outcome = await executor.executeTool(toolCall("read_file", params), context);
  return { outcome, context, text: textOf(outcome.content) };
}

describe("read_file", () => {
  it("returns the text of a small file without asking", async () => {
    const { outcome, context, text } = await read({ path: "a.txt" });
    expect(outcome.status).toBe("success");
    expect(text).toBe("one\ntwo\nthree");
    expect(context.asks).toEqual([]);
    expect(context.says.at(-1)).toMatchObject({ type: "tool", partial: false, meta: { tool: "read_file", path: "a.txt" } });
  });

  it("a missing path parameter is a mistake with a clear message", async () => {
    const { outcome, text } = await read({});
    expect(outcome.status).toBe("mistake");
    expect(text).toContain("missing value for required parameter 'path'");
    const empty = await read({ path: "  " });
    expect(empty.outcome.status).toBe("mistake");
  });

  it("reads a huge file in windows of 1,000 lines and says how to read on", async () => {
    const lines = Array.from({ length: 250_000 }, (_, index) => `line ${index + 1}`);
    workspace.write("huge.txt", lines.join("\n") + "\n");
    const first = await read({ path: "huge.txt" });
    expect(first.text).toContain("Showing lines 1-1000 of 250000. To read on, call read_file with start_line=1001.");
    expect(first.text.split("\n")).toHaveLength(1001);
    const later = await read({ path: "huge.txt", start_line: "249999" });
    expect(later.text).toContain("Showing lines 249999-250000 of 250000.");
    expect(later.text).toContain("line 250000");
    const beyond = await read({ path: "huge.txt", start_line: "300000" });
    expect(beyond.outcome.status).toBe("mistake");
    expect(beyond.text).toContain("has only 250000 lines");
  });

  it("rejects nonsense line numbers", async () => {
    expect((await read({ path: "a.txt", start_line: "zero" })).outcome.status).toBe("mistake");
    expect((await read({ path: "a.txt", start_line: "3", end_line: "2" })).text).toContain("before start_line");
  });

  it("refuses binary files with a clear message", async () => {
    workspace.write("image.bin", Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]));
    const { outcome, text } = await read({ path: "image.bin" });
    expect(outcome.status).toBe("error");
    expect(text).toContain("binary file");
  });

  it("shows non-UTF-8 text as Latin-1 and says so", async () => {
    workspace.write("latin.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const { text } = await read({ path: "latin.txt" });
    expect(text).toContain("café");
    expect(text).toContain("not valid UTF-8");
  });

  it("says so on a second read of an unchanged file, and resends after a change", async () => {
    const executor = createTestExecutor(workspace);
    const context = createRecordingContext();
    await executor.executeTool(toolCall("read_file", { path: "a.txt" }), context);
    const second = await executor.executeTool(toolCall("read_file", { path: "a.txt" }), context);
    expect(textOf(second.content)).toContain("has not changed since you last read it");
    writeFileSync(workspace.path("a.txt"), "changed\n");
    utimesSync(workspace.path("a.txt"), new Date(), new Date(Date.now() + 5000));
    const third = await executor.executeTool(toolCall("read_file", { path: "a.txt" }), context);
    expect(textOf(third.content)).toBe("changed");
  });

  it("sends the file again after cairn itself edited it", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    const context = createRecordingContext();
    await executor.executeTool(toolCall("read_file", { path: "a.txt" }), context);
    await executor.executeTool(toolCall("write_to_file", { path: "a.txt", content: "one\ntwo\nthree\n" }), context);
    const again = await executor.executeTool(toolCall("read_file", { path: "a.txt" }), context);
    expect(textOf(again.content)).toBe("one\ntwo\nthree");
  });

  it("refuses files hidden by .cairnignore, also through a link", async () => {
    const { outcome, text } = await read({ path: "secret.env" });
    expect(outcome.status).toBe("error");
    expect(text).toContain(".cairnignore");
    symlinkSync(workspace.path("secret.env"), workspace.path("innocent.txt"));
    const viaLink = await read({ path: "innocent.txt" });
    expect(viaLink.outcome.status).toBe("error");
    expect(viaLink.text).not.toContain("KEY=1");
  });

  it("asks before reading outside the workspace and passes a denial on", async () => {
    writeFileSync(join(workspace.base, "outside.txt"), "outside\n");
    const denied = await read({ path: "../outside.txt" }, { answers: [{ response: "message", text: "stay in the project" }] });
    expect(denied.context.asks[0]).toMatchObject({ type: "tool", meta: { outsideWorkspace: true } });
    expect(denied.outcome.status).toBe("rejected");
    expect(denied.text).toContain("The user denied this operation");
    expect(denied.text).toContain("stay in the project");
    const allowed = await read({ path: "../outside.txt" }, { answers: [{ response: "yes" }] });
    expect(allowed.text).toBe("outside");
  });

  it("explains a missing file and a folder", async () => {
    expect((await read({ path: "nope.txt" })).text).toContain("there is no file at nope.txt");
    workspace.write("folder/x", "x");
    expect((await read({ path: "folder" })).text).toContain("is a folder");
  });
});
