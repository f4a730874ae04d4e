import { writeFileSync, readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultApprovalSettings } from "../approval.js";
import { createRecordingContext } from "../test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "../test-support/test-workspace.js";
import { applySearchReplace } from "./apply-blocks.js";
import { parseSearchReplace } from "./parse-blocks.js";

function block(search: string[], replace: string[], closed = true): string {
  return ["------- SEARCH", ...search, "=======", ...replace, ...(closed ? ["+++++++ REPLACE"] : [])].join("\n");
}

const code = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n\nfunction c() {\n  return 3;\n}\n";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace({ "code.ts": code, "plain.txt": "no final newline", "lf.txt": "with newline\n" });
});
afterEach(() => workspace.cleanup());

const edits = { approval: { ...defaultApprovalSettings, editInside: true } };

describe("edits: what Cline accepts, cairn accepts", () => {
  it("a diff whose last block has no closing +++++++ REPLACE marker applies (replace_in_file)", async () => {
    const executor = createTestExecutor(workspace, edits);
    const diff = block(["  return 1;"], ["  return 10;"]) + "\n" + block(["  return 2;"], ["  return 20;"], false);
    const outcome = await executor.executeTool(toolCall("replace_in_file", { path: "code.ts", diff }), createRecordingContext());
    expect(outcome.status).toBe("success");
    expect(readFileSync(workspace.path("code.ts"), "utf8")).toBe(code.replace("return 1;", "return 10;").replace("return 2;", "return 20;"));
  });

  it("a SEARCH section with no separator at all is still refused", () => {
    const parsed = parseSearchReplace("------- SEARCH\na\nb", { final: true });
    expect(parsed.incomplete?.stage).toBe("search");
  });

  it("blocks out of file order: each is searched in the whole file; the result equals the blocks in file order", () => {
    const inOrder = [block(["  return 1;"], ["  return 10;"]), block(["  return 2;"], ["  return 20;"]), block(["  return 3;"], ["  return 30;"])];
    const expected = applySearchReplace(code, parseSearchReplace(inOrder.join("\n")).blocks);
    expect(expected.ok).toBe(true);
    for (const order of [
      [2, 0, 1],
      [1, 2, 0],
      [2, 1, 0],
    ]) {
      const shuffled = order.map((position) => inOrder[position]!).join("\n");
      const result = applySearchReplace(code, parseSearchReplace(shuffled).blocks);
      expect(result.ok ? result.content : result.message).toBe(expected.ok ? expected.content : "");
    }
  });

  it("out-of-order blocks that overlap are refused, and nothing is written", () => {
    const diff = block(["function b() {", "  return 2;"], ["function B() {", "  return 2;"]) + "\n" + block(["  return 2;", "}"], ["  return 22;", "}"]);
    const result = applySearchReplace(code, parseSearchReplace(diff).blocks);
    expect(result.ok).toBe(false);
  });

  it("write_to_file (xml) keeps the final newline the parser trimmed off a new file", async () => {
    const executor = createTestExecutor(workspace, edits);
    await executor.executeTool(toolCall("write_to_file", { path: "new.ts", content: "export const a = 1;" }), createRecordingContext());
    expect(readFileSync(workspace.path("new.ts"), "utf8")).toBe("export const a = 1;\n");
    await executor.executeTool(toolCall("write_to_file", { path: "lf.txt", content: "changed" }), createRecordingContext());
    expect(readFileSync(workspace.path("lf.txt"), "utf8")).toBe("changed\n");
  });

  it("write_to_file leaves a file without a final newline without one", async () => {
    const executor = createTestExecutor(workspace, edits);
    await executor.executeTool(toolCall("write_to_file", { path: "plain.txt", content: "still no final newline" }), createRecordingContext());
    expect(readFileSync(workspace.path("plain.txt"), "utf8")).toBe("still no final newline");
    writeFileSync(workspace.path("empty.txt"), "");
    await executor.executeTool(toolCall("write_to_file", { path: "empty.txt", content: "" }), createRecordingContext());
    expect(readFileSync(workspace.path("empty.txt"), "utf8")).toBe("");
  });
});
