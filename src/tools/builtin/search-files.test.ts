import { symlinkSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseRule, PermissionRules } from "../../security/permission-rules.js";
import { javascriptSearch } from "../search/javascript-search.js";
import { matchesGlob } from "../search/glob-pattern.js";
import { createRecordingContext, textOf } from "../test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "../test-support/test-workspace.js";
import { WorkspaceGuard } from "../workspace-guard.js";
import { formatSearchOutcome } from "./search-files.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace({
    "src/a.ts": "import x;\nfunction findMe() {}\nreturn;\n",
    "src/b.py": "def findMe():\n    pass\n",
    "ignored/c.ts": "findMe\n",
    ".gitignore": "ignored/\n",
    ".cairnignore": "secret.ts\n",
    "secret.ts": "findMe secret\n",
    ".hidden/d.ts": "findMe hidden\n",
  });
});
afterEach(() => workspace.cleanup());

async function search(params: Record<string, string>) {
  const outcome = await createTestExecutor(workspace).executeTool(toolCall("search_files", params), createRecordingContext());
  return { outcome, text: textOf(outcome.content) };
}

describe("search_files", () => {
  it("finds matches with a line of context, skipping ignored files", async () => {
    const { text } = await search({ path: ".", regex: "findMe" });
    expect(text).toContain("Found 2 matches");
    expect(text).toContain("src/a.ts\n1- import x;\n2: function findMe() {}\n3- return;");
    expect(text).not.toContain("ignored/c.ts");
    expect(text).not.toContain("secret");
  });

  it("leaves out, in one search, every file read_file refuses: ignored, credentials, a Read deny rule, a Read ask rule, a link out", async () => {
    workspace.write(".env", "findMe=token\n");
    workspace.write("private/p.ts", "findMe private\n");
    workspace.write("asked/q.ts", "findMe asked\n");
    const outside = createTestWorkspace({ "o.ts": "findMe outside\n" });
    symlinkSync(outside.root, workspace.path("out"));
    try {
      const rules = new PermissionRules([parseRule("Read(private/**)", "deny", "test"), parseRule("Read(asked/**)", "ask", "test")], workspace.root);
      const executor = createTestExecutor(workspace, { yes: true, rules });
      const outcome = await executor.executeTool(toolCall("search_files", { path: ".", regex: "findMe", file_pattern: "*" }), createRecordingContext());
      const text = textOf(outcome.content);
      expect(text).toContain("src/a.ts");
      for (const hidden of ["secret", "token", "private", "asked", "outside"]) expect(text).not.toContain(hidden);
    } finally {
      outside.cleanup();
    }
  });

  it("limits files with file_pattern", async () => {
    const { text } = await search({ path: ".", regex: "findMe", file_pattern: "*.py" });
    expect(text).toContain("src/b.py");
    expect(text).not.toContain("src/a.ts");
  });

  it("stops at 300 matches with a note", async () => {
    workspace.write("many.txt", Array.from({ length: 1000 }, () => "hit").join("\n"));
    const { text } = await search({ path: ".", regex: "hit" });
    expect(text).toContain("Found 300 matches (stopped at 300");
  });

  it("reports an invalid regex as a mistake", async () => {
    const { outcome, text } = await search({ path: ".", regex: "(" });
    expect(outcome.status).toBe("mistake");
    expect(text).toContain("not a valid regular expression");
  });

  it("supports look-around through ripgrep's PCRE2 engine", async () => {
    const { text } = await search({ path: ".", regex: "function (?=findMe)" });
    expect(text).toContain("src/a.ts\n1- import x;\n2: function findMe() {}");
  });

  it("says when nothing matches", async () => {
    expect((await search({ path: "src", regex: "nothing-like-this" })).text).toBe("No matches found.");
  });

  it("the JS fallback gives the same results as ripgrep", async () => {
    const guard = new WorkspaceGuard(workspace.root);
    const outcome = await javascriptSearch({ folder: workspace.root, regex: "findMe", limit: 300, signal: new AbortController().signal }, guard);
    const text = formatSearchOutcome(outcome, workspace.root, (path) => guard.isIgnored(path));
    expect(text).toBe((await search({ path: ".", regex: "findMe" })).text);
  });

  it("globs match like ripgrep's --glob", () => {
    expect(matchesGlob("*.ts", "src/deep/a.ts")).toBe(true);
    expect(matchesGlob("src/**/*.ts", "src/deep/a.ts")).toBe(true);
    expect(matchesGlob("src/*.ts", "src/deep/a.ts")).toBe(false);
    expect(matchesGlob("*.{ts,py}", "b.py")).toBe(true);
  });
});
