import { describe, expect, it } from "vitest";
import { claudeCodeToolCall, paramsFromUpdatedInput } from "./claude-code-input.js";
import { claudeCodeToolView } from "./claude-code-tools.js";
import { matcherMatches } from "./tool-names.js";

const workspace = "/work/project";

function rewrite(name: string, params: Record<string, string>, updated: Record<string, unknown>) {
  const block = { name, params };
  return paramsFromUpdatedInput({ block, dialect: "claude-code", view: claudeCodeToolView(block, workspace), updated, workspace });
}

describe("Claude Code's matchers", () => {
  it("letters, digits, _ and | are exact names; anything else is a regular expression searched in the name", () => {
    expect(matcherMatches("Bash", ["Bash"])).toBe(true);
    expect(matcherMatches("Bash", ["BashOutput"])).toBe(false);
    expect(matcherMatches("Edit|Write", ["Write"])).toBe(true);
    expect(matcherMatches("Edit|Write", ["Read"])).toBe(false);
    expect(matcherMatches("mcp__memory__.*", ["mcp__memory__store"])).toBe(true);
    expect(matcherMatches("mcp__memory", ["mcp__memory__store"])).toBe(false);
    expect(matcherMatches("^Notebook", ["NotebookEdit"])).toBe(true);
    expect(matcherMatches("mcp__.*__write", ["mcp__fs__write_file"])).toBe(true);
    expect(matcherMatches("", ["anything"])).toBe(true);
    expect(matcherMatches("*", ["anything"])).toBe(true);
  });
});

describe("updatedInput in Claude Code's shape back to cairn's parameters", () => {
  it("Read's offset and limit become start_line and end_line; a path inside the workspace becomes relative", () => {
    expect(rewrite("read_file", { path: "a.txt" }, { file_path: `${workspace}/src/b.ts`, offset: 10, limit: 5 })).toEqual({ params: { path: "src/b.ts", start_line: "10", end_line: "14" } });
  });

  it("a path outside the workspace stays absolute (and is approved as an outside path)", () => {
    expect(rewrite("write_to_file", { path: "a.txt", content: "x" }, { file_path: "/etc/passwd" })).toEqual({ params: { path: "/etc/passwd", content: "x" } });
  });

  it("MultiEdit's edits become SEARCH/REPLACE blocks; replace_all is refused", () => {
    const diff = "------- SEARCH\na\n=======\nA\n+++++++ REPLACE\n------- SEARCH\nb\n=======\nB\n+++++++ REPLACE";
    const twoBlocks = { path: "f.txt", diff };
    expect(rewrite("replace_in_file", twoBlocks, { edits: [{ old_string: "a", new_string: "1" }] })).toEqual({ params: { path: "f.txt", diff: "------- SEARCH\na\n=======\n1\n+++++++ REPLACE" } });
    expect(rewrite("replace_in_file", twoBlocks, { edits: [{ old_string: "a", new_string: "1", replace_all: true }] })).toEqual({ problem: expect.stringContaining("replace_all") });
  });

  it("Grep, Glob, Bash's timeout (milliseconds to seconds) and an MCP tool's arguments", () => {
    expect(rewrite("search_files", { path: ".", regex: "x", file_pattern: "*.ts" }, { pattern: "y", glob: "*.md" })).toEqual({ params: { path: ".", regex: "y", file_pattern: "*.md" } });
    expect(rewrite("list_files", { path: "src", recursive: "true" }, { pattern: "*" })).toEqual({ params: { path: "src", recursive: "false" } });
    expect(rewrite("execute_command", { command: "ls", requires_approval: "false" }, { timeout: 1500 })).toEqual({ params: { command: "ls", requires_approval: "false", timeout: "2" } });
    expect(rewrite("use_mcp_tool", { server_name: "s", tool_name: "t", arguments: '{"a":1}' }, { a: 2 })).toEqual({ params: { server_name: "s", tool_name: "t", arguments: '{"a":2}' } });
  });

  it("a field of the wrong type blocks the call rather than run something else", () => {
    expect(rewrite("execute_command", { command: "ls", requires_approval: "false" }, { command: ["rm", "-rf"] })).toEqual({ problem: expect.stringContaining('"command" is not text') });
  });

  it("`cairn hooks test --tool Bash` names a call the Claude Code way", () => {
    expect(claudeCodeToolCall("Bash", { command: "ls" }, workspace)).toEqual({ name: "execute_command", params: { requires_approval: "true", command: "ls" } });
    expect(claudeCodeToolCall("mcp__s__t", { a: 1 }, workspace)).toEqual({ name: "use_mcp_tool", params: { server_name: "s", tool_name: "t", arguments: '{"a":1}' } });
    expect(claudeCodeToolCall("execute_command", {}, workspace)).toBeUndefined();
  });
});
