import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolUseBlock } from "../parser/types.js";
import { createToolExecutor, defaultApprovalSettings } from "../tools/create-tool-executor.js";
import { createRecordingContext } from "../tools/test-support/recording-context.js";
import { newRuleTool } from "./new-rule-tool.js";

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "cairn-new-rule-"));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

function tools(yes = false) {
  // Edits inside the workspace are auto-approved here: new_rule must still ask.
  const executor = createToolExecutor({ workspace, yes, allowOutsideWrites: false, protocol: "xml", approval: { ...defaultApprovalSettings, editInside: true } });
  executor.registerTool(newRuleTool);
  return executor;
}

const call = (path: string, content = "# Testing\n\nRun npm test before finishing.\n") => ({ type: "tool_use", id: "n1", name: "new_rule", params: { path, content }, partial: false }) as ToolUseBlock;

describe("new_rule writes a rule only where rules belong, after asking", () => {
  it("asks before writing a rule even where edits are auto-approved, and writes it into .clinerules/", async () => {
    const context = createRecordingContext({ answers: [{ response: "yes" }] });
    const outcome = await tools().executeTool(call("testing.md"), context);
    expect(outcome.status).toBe("success");
    expect(context.asks).toHaveLength(1);
    expect(await readFile(join(workspace, ".clinerules", "testing.md"), "utf8")).toContain("Run npm test");
  });

  it("a refused rule is not written; paths outside the rule folders and non-Markdown files are refused", async () => {
    const refused = await tools().executeTool(call(".cairn/rules/style.md"), createRecordingContext({ answers: [{ response: "no" }] }));
    expect(refused.status).toBe("rejected");
    await expect(readFile(join(workspace, ".cairn", "rules", "style.md"), "utf8")).rejects.toThrow();
    const outside = await tools().executeTool(call("src/evil.md"), createRecordingContext());
    expect(outside.status).toBe("error");
    expect(JSON.stringify(outside.content)).toContain("only into .clinerules/ or .cairn/rules/");
    const escape = await tools().executeTool(call(".clinerules/../package.json"), createRecordingContext());
    expect(escape.status).toBe("error");
    const text = await tools().executeTool(call(".clinerules/rule.txt"), createRecordingContext());
    expect(JSON.stringify(text.content)).toContain("ending in .md");
  });

  it("when .clinerules is a single file, a bare name goes into .cairn/rules/", async () => {
    await writeFile(join(workspace, ".clinerules"), "old single rules file\n");
    // .cairn/ is protected (#14): even under --yes the rule is written only on an explicit yes.
    const outcome = await tools(true).executeTool(call("db.md"), createRecordingContext({ answers: [{ response: "yes" }] }));
    expect(outcome.status).toBe("success");
    expect(await readFile(join(workspace, ".cairn", "rules", "db.md"), "utf8")).toContain("Run npm test");
  });
});
