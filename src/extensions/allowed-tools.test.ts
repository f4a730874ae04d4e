import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolUseBlock } from "../parser/types.js";
import { createToolExecutor } from "../tools/create-tool-executor.js";
import { createRecordingContext } from "../tools/test-support/recording-context.js";
import { allowsCall, parseAllowedTools, withAllowedTools } from "./allowed-tools.js";

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "cairn-allowed-"));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const block = (name: string, params: Record<string, string>) => ({ type: "tool_use", id: `${name}-1`, name, params, partial: false }) as ToolUseBlock;

describe("a custom command's allowed-tools front matter", () => {
  it("parses Claude Code's entries and matches command prefixes, exact commands and path globs", () => {
    const allowed = parseAllowedTools(["Bash(git diff:*), Bash(npm test), Edit(src/**)", "Read"]);
    expect(allowed).toEqual([{ tool: "Bash", argument: "git diff:*" }, { tool: "Bash", argument: "npm test" }, { tool: "Edit", argument: "src/**" }, { tool: "Read" }]);
    expect(allowsCall(allowed, "execute_command", { command: "git diff --stat" })).toBe(true);
    expect(allowsCall(allowed, "execute_command", { command: "git diff && rm -rf ~" })).toBe(false);
    expect(allowsCall(allowed, "execute_command", { command: "npm test -- --watch" })).toBe(false);
    expect(allowsCall(allowed, "replace_in_file", { path: "src/a/b.ts" })).toBe(true);
    expect(allowsCall(allowed, "write_to_file", { path: "package.json" })).toBe(false);
    expect(allowsCall(allowed, "list_files", { path: "." })).toBe(true);
  });

  it("an allowed call runs without an ask; others still ask; outside the workspace always asks", async () => {
    const tools = withAllowedTools(createToolExecutor({ workspace, yes: false, allowOutsideWrites: false, protocol: "xml" }), ["Write(notes/*)", "Bash(echo:*)"]);
    const quiet = createRecordingContext();
    expect((await tools.executeTool(block("write_to_file", { path: "notes/a.md", content: "x\n" }), quiet)).status).toBe("success");
    expect((await tools.executeTool(block("execute_command", { command: "echo allowed", requires_approval: "true" }), quiet)).status).toBe("success");
    expect(quiet.asks).toEqual([]);
    expect(await readFile(join(workspace, "notes", "a.md"), "utf8")).toBe("x\n");
    const asked = createRecordingContext({ answers: [{ response: "no" }] });
    expect((await tools.executeTool(block("write_to_file", { path: "other.md", content: "x\n" }), asked)).status).toBe("rejected");
    expect(asked.asks).toHaveLength(1);
    const everything = withAllowedTools(createToolExecutor({ workspace, yes: false, allowOutsideWrites: false, protocol: "xml" }), ["Write"]);
    const outside = createRecordingContext({ answers: [{ response: "no" }] });
    await everything.executeTool(block("write_to_file", { path: join(workspace, "..", "outside-allowed.md"), content: "x\n" }), outside);
    expect(outside.asks).toHaveLength(1);
  });
});
