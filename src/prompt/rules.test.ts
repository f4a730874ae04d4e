import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { globMatches } from "./glob-match.js";
import { createPromptBuilder } from "./system-prompt.js";
import { TaskRules, withRulePathTracking } from "./task-rules.js";
import { createToolExecutor } from "../tools/create-tool-executor.js";
import { createRecordingContext } from "../tools/test-support/recording-context.js";
import type { ToolUseBlock } from "../parser/types.js";

let workspace: string;
let globalRulesDir: string;
beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), "cairn-rules-"));
  workspace = join(root, "ws");
  globalRulesDir = join(root, "global");
  await mkdir(workspace, { recursive: true });
});
afterEach(async () => {
  await rm(join(workspace, ".."), { recursive: true, force: true });
});

async function put(path: string, text: string): Promise<void> {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, text);
}

function builder(rules: TaskRules) {
  const executor = createToolExecutor({ workspace, yes: true, allowOutsideWrites: false, protocol: "xml" });
  return createPromptBuilder({ workspace, toolExecutor: executor, globalRulesDir, ruleScope: { touched: rules.touched, disabled: rules.disabled } });
}

const prompt = (rules: TaskRules) => builder(rules).systemPrompt({ mode: "act", protocol: "xml", mcpSection: "" });

describe("rules: globs, nested AGENTS.md, conditional rules and imports", () => {
  it("globs: ** across folders, * within a name, {a,b}, a bare name anywhere", () => {
    expect(globMatches("src/**/*.ts", "src/a/b/c.ts")).toBe(true);
    expect(globMatches("src/**/*.ts", "src/c.ts")).toBe(true);
    expect(globMatches("src/*.ts", "src/a/c.ts")).toBe(false);
    expect(globMatches("*.{css,scss}", "web/styles/main.scss")).toBe(true);
    expect(globMatches("docs/**", "src/docs.ts")).toBe(false);
  });

  it("a nested AGENTS.md is added once a file in its folder is touched (through the tool executor)", async () => {
    await put(join(workspace, "AGENTS.md"), "Root rule: be brief.");
    await put(join(workspace, "packages", "api", "AGENTS.md"), "API rule: every handler validates its input.");
    await put(join(workspace, "packages", "api", "src", "handler.ts"), "export {};\n");
    await put(join(workspace, "packages", "web", "index.ts"), "export {};\n");
    const rules = new TaskRules({ workspace, globalRulesDir });
    expect(await prompt(rules)).toContain("Root rule: be brief.");
    expect(await prompt(rules)).not.toContain("API rule");

    const tools = withRulePathTracking(createToolExecutor({ workspace, yes: true, allowOutsideWrites: false, protocol: "xml" }), rules);
    const read = { type: "tool_use", id: "r1", name: "read_file", params: { path: "packages/web/index.ts" }, partial: false } as ToolUseBlock;
    await tools.executeTool(read, createRecordingContext());
    expect(await prompt(rules)).not.toContain("API rule");
    await tools.executeTool({ ...read, id: "r2", params: { path: "packages/api/src/handler.ts" } }, createRecordingContext());
    const after = await prompt(rules);
    expect(after).toContain("## packages/api/AGENTS.md (applies to files in its folder)");
    expect(after).toContain("API rule: every handler validates its input.");
  });

  it("a conditional rule (paths: front matter) applies only while a matching file is in play", async () => {
    await put(join(workspace, ".clinerules", "react.md"), '---\npaths:\n  - "web/**/*.tsx"\n---\nUse function components.');
    await put(join(workspace, ".cairn", "rules", "sql.md"), '---\npaths: ["**/*.sql"]\n---\nNever DROP a table.');
    const rules = new TaskRules({ workspace, globalRulesDir });
    expect(await prompt(rules)).not.toContain("function components");
    rules.touch("web/src/App.tsx");
    const text = await prompt(rules);
    expect(text).toContain("Use function components.");
    expect(text).not.toContain("paths:");
    expect(text).not.toContain("Never DROP");
    rules.touch("db/migrations/001.sql");
    expect(await prompt(rules)).toContain("Never DROP a table.");
  });

  it("@file imports inside rules (recursive, relative to the rule, not inside code) and per-task toggles", async () => {
    await put(join(workspace, "CLAUDE.md"), "See @docs/style.md for style.\nNot an import: `@docs/nothing.md`.\n");
    await put(join(workspace, "docs", "style.md"), "Tabs, not spaces. Also @./naming.md");
    await put(join(workspace, "docs", "naming.md"), "Names are nouns.");
    await put(join(globalRulesDir, "mine.md"), "Global: answer in English.");
    const rules = new TaskRules({ workspace, globalRulesDir });
    const text = await prompt(rules);
    expect(text).toContain("Tabs, not spaces.");
    expect(text).toContain("Names are nouns.");
    expect(text).toContain("Global: answer in English.");
    expect((await rules.list()).map((listed) => `${listed.rule.source}:${listed.enabled}`)).toEqual(["global rules/mine.md:true", "CLAUDE.md:true"]);
    expect(rules.toggle("global rules/mine.md")).toBe(false);
    expect(await prompt(rules)).not.toContain("Global: answer in English.");
    expect(rules.toggle("global rules/mine.md")).toBe(true);
    expect(await prompt(rules)).toContain("Global: answer in English.");
  });
});

describe("/rules lists rules and toggles them per task", () => {
  it("lists the rules with marks and toggles one by a unique part of its name; the toggles stay with the task id", async () => {
    await put(join(workspace, "AGENTS.md"), "Root.");
    await put(join(workspace, ".clinerules", "db.md"), '---\npaths: ["**/*.sql"]\n---\nNo DROP.');
    const rules = new TaskRules({ workspace, globalRulesDir, taskId: "task-rules-test" });
    expect(await rules.command("")).toBe("[x] AGENTS.md\n[x] .clinerules/db.md (only with **/*.sql)\n/rules NAME switches one off or on for this task.");
    expect(await rules.command("AGENTS")).toBe("AGENTS.md is now off for this task.");
    expect(await rules.command("nothing")).toBe('No rule matches "nothing".');
    const again = new TaskRules({ workspace, globalRulesDir, taskId: "task-rules-test" });
    expect(await again.command("")).toContain("[ ] AGENTS.md");
    expect(await prompt(again)).not.toContain("Root.");
  });
});

describe("Claude Code's memory files", () => {
  it("CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md and the user's ~/.claude/CLAUDE.md all reach the prompt, each named", async () => {
    const claudeUserDir = join(workspace, "..", "claude-home");
    await put(join(workspace, "CLAUDE.md"), "project memory");
    await put(join(workspace, ".claude", "CLAUDE.md"), "memory in the .claude folder");
    await put(join(workspace, "CLAUDE.local.md"), "my uncommitted memory");
    await put(join(claudeUserDir, "CLAUDE.md"), "my user memory");
    const rules = new TaskRules({ workspace, claudeUserDir });
    expect((await rules.list()).map(({ rule }) => rule.source)).toEqual(["~/.claude/CLAUDE.md", "CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"]);
    const executor = createToolExecutor({ workspace, yes: true, allowOutsideWrites: false, protocol: "xml" });
    const text = await createPromptBuilder({ workspace, toolExecutor: executor, claudeUserDir }).systemPrompt({ mode: "act", protocol: "xml", mcpSection: "" });
    for (const memory of ["project memory", "memory in the .claude folder", "my uncommitted memory", "my user memory"]) expect(text).toContain(memory);
  });
});
