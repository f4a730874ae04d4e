/**
 * Hooks written for Claude Code, through the real CLI: they see Claude Code's
 * tool names, tool_input and tool_response shapes, their matchers match those
 * names, their updatedInput is mapped back to cairn's parameters, and
 * PostToolUse / PostToolUseFailure split on the outcome as in Claude Code.
 */
import { mkdir, readFile, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { createHookRecorder, type HookRecord } from "./test-support/hook-recorder.js";

const cli = useCliFixture();

const turn = (text: string) => ({ text });
const complete = turn("<attempt_completion>\n<result>done</result>\n</attempt_completion>");
const command = (line: string, timeout?: number) =>
  turn(`<execute_command>\n<command>${line}</command>\n<requires_approval>false</requires_approval>\n${timeout === undefined ? "" : `<timeout>${timeout}</timeout>\n`}</execute_command>`);
const write = (path: string, content: string) => turn(`<write_to_file>\n<path>${path}</path>\n<content>\n${content}</content>\n</write_to_file>`);
const block = (search: string, replace: string) => `------- SEARCH\n${search}\n=======\n${replace}\n+++++++ REPLACE`;
const replace = (path: string, ...blocks: string[]) => turn(`<replace_in_file>\n<path>${path}</path>\n<diff>\n${blocks.join("\n")}\n</diff>\n</replace_in_file>`);

type Groups = Array<{ matcher?: string; hooks: Array<{ type: "command"; command: string }> }>;

async function userHooks(hooks: Record<string, Groups | string>): Promise<void> {
  await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] }, sandboxOptIn: false, hooks }));
}

async function run(scenario: Scenario, extra: string[] = ["--yes"]): ReturnType<typeof cli.run> {
  const server = await cli.startServer(scenario);
  return cli.run(["run", "--json", ...extra, "--provider", "anthropic", "--base-url", server.url, "--api-key", "test-key", "do the thing"]);
}

const requests = (): string => JSON.stringify(cli.server?.requests.map((request) => request.body) ?? []);
const group = (matcher: string, hookCommand: string) => ({ matcher, hooks: [{ type: "command" as const, command: hookCommand }] });
const labelled = (records: HookRecord[], label: string) => records.filter((record) => record.label === label).map((record) => record.input);

describe("hooks in Claude Code's format see Claude Code's tools", () => {
  it("PreToolUse gets Claude Code's tool names and tool_input shapes, its matchers match those names, and the common fields are set", async () => {
    const recorder = await createHookRecorder(cli.sandbox);
    await userHooks({
      PreToolUse: [
        group("Bash", recorder.command("bash")),
        group("Edit|Write", recorder.command("edit")),
        group("Read|Grep|Glob", recorder.command("read")),
        group("WebFetch", recorder.command("web", "deny")),
        group("mcp__.*", recorder.command("mcp", "deny")),
      ],
    });
    const result = await run({
      turns: [
        command("echo hi", 30),
        write("notes.txt", "one\ntwo\nthree\n"),
        replace("notes.txt", block("two", "TWO")),
        replace("notes.txt", block("one", "ONE"), block("three", "THREE")),
        turn("<read_file>\n<path>notes.txt</path>\n<start_line>2</start_line>\n<end_line>3</end_line>\n</read_file>"),
        turn("<search_files>\n<path>.</path>\n<regex>ONE</regex>\n<file_pattern>*.txt</file_pattern>\n</search_files>"),
        turn("<list_files>\n<path>.</path>\n<recursive>true</recursive>\n</list_files>"),
        turn("<web_fetch>\n<url>http://127.0.0.1:9/page</url>\n</web_fetch>"),
        turn('<use_mcp_tool>\n<server_name>memory</server_name>\n<tool_name>store</tool_name>\n<arguments>{"key": "k"}</arguments>\n</use_mcp_tool>'),
        complete,
      ],
    });
    expect(result.status, result.stderr).toBe(0);
    const workspace = await realpath(cli.sandbox.workspace);
    const notes = join(workspace, "notes.txt");
    const records = await recorder.records();
    const shapes = (label: string) => labelled(records, label).map((input) => ({ tool_name: input["tool_name"], tool_input: input["tool_input"] }));
    expect(shapes("bash")).toEqual([{ tool_name: "Bash", tool_input: { command: "echo hi", timeout: 30_000 } }]);
    expect(shapes("edit")).toEqual([
      // The content as the model sent it (cairn's XML values lose their last newline; the tool puts it back on disk).
      { tool_name: "Write", tool_input: { file_path: notes, content: "one\ntwo\nthree" } },
      { tool_name: "Edit", tool_input: { file_path: notes, old_string: "two\n", new_string: "TWO\n", replace_all: false } },
      {
        tool_name: "MultiEdit",
        tool_input: {
          file_path: notes,
          edits: [
            { old_string: "one\n", new_string: "ONE\n" },
            { old_string: "three\n", new_string: "THREE\n" },
          ],
        },
      },
    ]);
    expect(shapes("read")).toEqual([
      { tool_name: "Read", tool_input: { file_path: notes, offset: 2, limit: 2 } },
      { tool_name: "Grep", tool_input: { pattern: "ONE", path: workspace, glob: "*.txt" } },
      { tool_name: "Glob", tool_input: { pattern: "**/*", path: workspace } },
    ]);
    expect(shapes("web")).toEqual([{ tool_name: "WebFetch", tool_input: { url: "http://127.0.0.1:9/page", prompt: "" } }]);
    expect(shapes("mcp")).toEqual([{ tool_name: "mcp__memory__store", tool_input: { key: "k" } }]);
    // The hooks' exit 2 reached the model as the reason the call did not run.
    expect(requests()).toContain("web is off in tests");
    expect(requests()).toContain("mcp is off in tests");

    const taskId = String(result.events[0]?.["taskId"]);
    for (const record of records) {
      expect(record.input).toMatchObject({
        session_id: taskId,
        transcript_path: join(cli.sandbox.dataDir, "tasks", taskId, "log.jsonl"),
        cwd: workspace,
        hook_event_name: "PreToolUse",
        permission_mode: "bypassPermissions",
      });
    }
  });

  it("PostToolUse gets tool_response in Claude Code's shape", async () => {
    const recorder = await createHookRecorder(cli.sandbox);
    await userHooks({ PostToolUse: [group("Bash|Edit|Write|Read", recorder.command("post"))] });
    const result = await run({ turns: [command("echo hi"), write("notes.txt", "one\ntwo\n"), replace("notes.txt", block("two", "TWO")), turn("<read_file>\n<path>notes.txt</path>\n</read_file>"), complete] });
    expect(result.status, result.stderr).toBe(0);
    const notes = join(await realpath(cli.sandbox.workspace), "notes.txt");
    const posts = labelled(await recorder.records(), "post");
    expect(posts.map((input) => input["tool_name"])).toEqual(["Bash", "Write", "Edit", "Read"]);
    expect(posts[0]?.["tool_response"]).toMatchObject({ stdout: expect.stringContaining("hi"), stderr: "", interrupted: false, isImage: false });
    expect(posts[1]?.["tool_response"]).toMatchObject({ filePath: notes, content: "one\ntwo", success: true });
    expect(posts[2]?.["tool_response"]).toMatchObject({ filePath: notes, oldString: "two\n", newString: "TWO\n", replaceAll: false, success: true });
    expect(posts[3]?.["tool_response"]).toMatchObject({ type: "text", file: { filePath: notes, content: expect.stringContaining("TWO") } });
  });

  it("updatedInput in Claude Code's shape is mapped back to cairn's parameters (Bash, Write, Edit)", async () => {
    const workspace = await realpath(cli.sandbox.workspace);
    await writeFile(join(workspace, "notes.txt"), "one\ntwo\n");
    const allowWith = (updatedInput: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput } });
    const recorder = await createHookRecorder(cli.sandbox);
    await userHooks({
      PreToolUse: [
        group("Bash", recorder.command("bash", allowWith({ command: "echo rewritten > bash.txt" }))),
        group("Write", recorder.command("write", allowWith({ file_path: join(workspace, "sub", "hooked.txt"), content: "from the hook\n" }))),
        group("Edit", recorder.command("edit", allowWith({ file_path: join(workspace, "notes.txt"), old_string: "two\n", new_string: "hooked\n" }))),
      ],
    });
    const result = await run({ turns: [command("echo original > bash.txt"), write("plain.txt", "model\n"), replace("notes.txt", block("two", "model")), complete] });
    expect(result.status, result.stderr).toBe(0);
    expect(await readFile(join(workspace, "bash.txt"), "utf8")).toBe("rewritten\n");
    expect(await readFile(join(workspace, "sub", "hooked.txt"), "utf8")).toBe("from the hook\n");
    await expect(readFile(join(workspace, "plain.txt"), "utf8")).rejects.toThrow();
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("one\nhooked\n");
  });

  it("an updatedInput cairn cannot carry out (Edit replace_all) blocks the call and says why", async () => {
    const workspace = await realpath(cli.sandbox.workspace);
    await writeFile(join(workspace, "notes.txt"), "a\nb\na\n");
    const recorder = await createHookRecorder(cli.sandbox);
    await userHooks({
      PreToolUse: [
        group(
          "Edit",
          recorder.command("edit", { hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { file_path: join(workspace, "notes.txt"), old_string: "a\n", new_string: "z\n", replace_all: true } } }),
        ),
      ],
    });
    const result = await run({ turns: [replace("notes.txt", block("b", "B")), complete] });
    expect(result.status, result.stderr).toBe(0);
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("a\nb\na\n");
    expect(requests()).toContain("replace_all");
  });

  it("PostToolUse runs after a successful call only; a failed edit runs PostToolUseFailure with the error, and its context reaches the model", async () => {
    await writeFile(join(cli.sandbox.workspace, "notes.txt"), "one\ntwo\n");
    const recorder = await createHookRecorder(cli.sandbox);
    await userHooks({
      PostToolUse: [group("Edit|Write", recorder.command("post"))],
      PostToolUseFailure: [group("Edit|Write", recorder.command("failure", { hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: "read the file again before editing" } }))],
    });
    const result = await run({ turns: [replace("notes.txt", block("missing line", "x")), write("other.txt", "fine\n"), complete] });
    expect(result.status, result.stderr).toBe(0);
    const records = await recorder.records();
    expect(labelled(records, "post").map((input) => input["tool_name"])).toEqual(["Write"]);
    const failures = labelled(records, "failure");
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ hook_event_name: "PostToolUseFailure", tool_name: "Edit", tool_input: { old_string: "missing line\n", new_string: "x\n" }, is_interrupt: false });
    expect(String(failures[0]?.["error"])).toContain("does not match");
    expect(JSON.stringify(cli.server?.requests[1]?.body)).toContain("read the file again before editing");
  });

  it("the user's Claude Code settings (~/.claude/settings.json, or $CLAUDE_CONFIG_DIR) run as user hooks, without trust", async () => {
    const recorder = await createHookRecorder(cli.sandbox);
    const claudeUserDir = String(cli.sandbox.env["CLAUDE_CONFIG_DIR"]);
    await mkdir(claudeUserDir, { recursive: true });
    await writeFile(join(claudeUserDir, "settings.json"), JSON.stringify({ hooks: { PreToolUse: [group("Bash", recorder.command("user-claude"))] } }));
    const result = await run({ turns: [command("echo hi"), complete] });
    expect(result.status, result.stderr).toBe(0);
    expect(labelled(await recorder.records(), "user-claude")).toEqual([expect.objectContaining({ tool_name: "Bash", tool_input: { command: "echo hi" } })]);
  });

  it('cairn\'s own hook forms (an executable in .cairn/hooks, the {"PreToolUse": "cmd"} form) keep cairn\'s tool names', async () => {
    const recorder = await createHookRecorder(cli.sandbox);
    await userHooks({ PreToolUse: recorder.command("old-form") });
    await mkdir(join(cli.sandbox.workspace, ".cairn", "hooks"), { recursive: true });
    await writeFile(join(cli.sandbox.workspace, ".cairn", "hooks", "PreToolUse"), `#!/bin/sh\nexec ${recorder.command("executable")}\n`, { mode: 0o755 });
    const result = await run({ turns: [command("echo hi"), complete] }, ["--yes", "--trust"]);
    expect(result.status, result.stderr).toBe(0);
    const records = await recorder.records();
    for (const label of ["old-form", "executable"]) {
      // Without a matcher they see every call, attempt_completion included.
      expect(labelled(records, label).map((input) => input["tool_name"])).toEqual(["execute_command", "attempt_completion"]);
      expect(labelled(records, label)[0]?.["tool_input"]).toMatchObject({ command: "echo hi", requires_approval: "false" });
    }
  });
});
