import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRecordingContext, textOf } from "../test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "../test-support/test-workspace.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace({ "code.ts": "const a = 1;\nconst b = 2;\nconst c = 3;\n" });
});
afterEach(() => workspace.cleanup());

function blocks(...pairs: Array<[string, string]>): string {
  return pairs.map(([search, replace]) => `------- SEARCH\n${search}\n=======\n${replace}\n+++++++ REPLACE`).join("\n");
}

describe("replace_in_file", () => {
  it("applies blocks after showing the diff, and reports where", async () => {
    const executor = createTestExecutor(workspace);
    const context = createRecordingContext({ answers: [{ response: "yes" }] });
    const outcome = await executor.executeTool(toolCall("replace_in_file", { path: "code.ts", diff: blocks(["const b = 2;", "const b = 20;"]) }), context);
    expect(outcome.status).toBe("success");
    expect(textOf(outcome.content)).toContain("lines 2-2 (exact match)");
    expect(String(context.asks[0]?.meta?.["diff"])).toContain("+const b = 20;");
    expect(readFileSync(workspace.path("code.ts"), "utf8")).toBe("const a = 1;\nconst b = 20;\nconst c = 3;\n");
  });

  it("writes nothing when one block does not apply, and shows the current content near the best candidate", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    const context = createRecordingContext();
    const outcome = await executor.executeTool(toolCall("replace_in_file", { path: "code.ts", diff: blocks(["const a = 1;", "const a = 10;"], ["const b = 2;\nconst c = 4;", "x"]) }), context);
    expect(outcome.status).toBe("error");
    const text = textOf(outcome.content);
    expect(text).toContain("block 2 does not match");
    expect(text).toContain("3 | const c = 3;");
    expect(readFileSync(workspace.path("code.ts"), "utf8")).toBe("const a = 1;\nconst b = 2;\nconst c = 3;\n");
    expect(context.says.some((say) => say.type === "diff_error")).toBe(true);
  });

  it("tells the model when the file changed on disk since it read it", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    await executor.executeTool(toolCall("read_file", { path: "code.ts" }), createRecordingContext());
    writeFileSync(workspace.path("code.ts"), "const a = 1;\nconst b = 99;\nconst c = 3;\n");
    const failed = await executor.executeTool(toolCall("replace_in_file", { path: "code.ts", diff: blocks(["const b = 2;", "const b = 20;"]) }), createRecordingContext());
    expect(textOf(failed.content)).toContain("the file changed on disk since you last read it");
    expect(textOf(failed.content)).toContain("const b = 99;");
    // A block that still matches applies to the file as it is now.
    const applied = await executor.executeTool(toolCall("replace_in_file", { path: "code.ts", diff: blocks(["const c = 3;", "const c = 30;"]) }), createRecordingContext());
    expect(applied.status).toBe("success");
    expect(readFileSync(workspace.path("code.ts"), "utf8")).toBe("const a = 1;\nconst b = 99;\nconst c = 30;\n");
  });

  it("keeps CRLF endings and the bytes of a non-UTF-8 file", async () => {
    workspace.write("win.txt", "a\r\nb\r\nc\r\n");
    workspace.write("latin.txt", Buffer.from("caf\xe9\nold\n", "latin1"));
    const executor = createTestExecutor(workspace, { yes: true });
    await executor.executeTool(toolCall("replace_in_file", { path: "win.txt", diff: blocks(["b", "B\nB2"]) }), createRecordingContext());
    expect(readFileSync(workspace.path("win.txt"), "utf8")).toBe("a\r\nB\r\nB2\r\nc\r\n");
    await executor.executeTool(toolCall("replace_in_file", { path: "latin.txt", diff: blocks(["old", "new"]) }), createRecordingContext());
    expect(readFileSync(workspace.path("latin.txt"))).toEqual(Buffer.from("caf\xe9\nnew\n", "latin1"));
  });

  it("explains a malformed diff and a missing file", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    const malformed = await executor.executeTool(toolCall("replace_in_file", { path: "code.ts", diff: "change a to b" }), createRecordingContext());
    expect(textOf(malformed.content)).toContain("no SEARCH/REPLACE block was found");
    const missing = await executor.executeTool(toolCall("replace_in_file", { path: "nope.ts", diff: blocks(["a", "b"]) }), createRecordingContext());
    expect(textOf(missing.content)).toContain("Create it with write_to_file");
    const noDiff = await executor.executeTool(toolCall("replace_in_file", { path: "code.ts" }), createRecordingContext());
    expect(noDiff.status).toBe("mistake");
  });

  it("previews the edit while the diff streams, without writing", () => {
    const executor = createTestExecutor(workspace);
    const context = createRecordingContext();
    const block = { type: "tool_use" as const, id: "stream-1", name: "replace_in_file", partial: true, params: { path: "code.ts", diff: "------- SEARCH\nconst a = 1;\n" } };
    executor.presentPartial(block, context);
    executor.presentPartial({ ...block, params: { path: "code.ts", diff: blocks(["const a = 1;", "const a = 5;"]) } }, context);
    expect(context.says).toHaveLength(2);
    expect(context.says[0]).toMatchObject({ type: "tool", partial: true, key: "stream-1", meta: { blocksComplete: 0 } });
    expect(context.says[1]?.meta?.["blocksComplete"]).toBe(1);
    expect(String(context.says[1]?.meta?.["diff"])).toContain("+const a = 5;");
    expect(readFileSync(workspace.path("code.ts"), "utf8")).toBe("const a = 1;\nconst b = 2;\nconst c = 3;\n");
  });
});
