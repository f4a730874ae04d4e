import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolUseBlock } from "../parser/types.js";
import { createToolExecutor } from "../tools/create-tool-executor.js";
import { createRecordingContext } from "../tools/test-support/recording-context.js";
import { callbackHooks } from "./callback-hooks.js";
import type { HookCallbackInputOf, HookCallbacks } from "./callback-hooks.js";
import { HookRunner } from "./hook-runner.js";
import { withToolHooks } from "./tool-hooks.js";

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "cairn-callback-tools-"));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

function executor(config: HookCallbacks) {
  const runner = new HookRunner({ hooks: callbackHooks(config), cwd: folder, basePayload: () => ({ session_id: "t", cwd: folder }) });
  const base = createToolExecutor({ workspace: folder, yes: false, allowOutsideWrites: false, protocol: "xml" });
  return withToolHooks(base, { runner, workspace: folder, stopTask: () => undefined });
}

function block(name: string, params: Record<string, string>): ToolUseBlock {
  return { type: "tool_use", id: `call-${name}`, name, params, partial: false };
}

const command = (text: string) => block("execute_command", { command: text, requires_approval: "false" });
const approving = () => createRecordingContext({ defaultAnswer: { response: "yes" } });
const exists = (name: string) =>
  readFile(join(folder, name), "utf8").then(
    () => true,
    () => false,
  );

describe("callback hooks around the real tools", () => {
  it("a PreToolUse callback denies a command: it does not run and the model is told why", async () => {
    const tools = executor({
      PreToolUse: [{ matcher: "Bash", hooks: [async () => ({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no touching" } })] }],
    });
    const outcome = await tools.executeTool(command("touch ran.txt"), approving());
    expect(outcome.status).toBe("rejected");
    expect(outcome.content).toContain("no touching");
    expect(await exists("ran.txt")).toBe(false);
  });

  it("a PreToolUse callback rewrites the command (updatedInput) and the changed command runs", async () => {
    const tools = executor({
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            (input) => {
              const original = typeof input.tool_input["command"] === "string" ? input.tool_input["command"] : "";
              return { hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: original.replace("original", "rewritten") } } };
            },
          ],
        },
      ],
    });
    const outcome = await tools.executeTool(command("echo original > out.txt"), approving());
    expect(outcome.status).toBe("success");
    expect(await readFile(join(folder, "out.txt"), "utf8")).toBe("rewritten\n");
  });

  it("a PreToolUse callback that throws blocks the call (fails closed)", async () => {
    const tools = executor({
      PreToolUse: [
        {
          hooks: [
            () => {
              throw new Error("policy service down");
            },
          ],
        },
      ],
    });
    const outcome = await tools.executeTool(command("touch ran.txt"), approving());
    expect(outcome.status).toBe("rejected");
    expect(outcome.content).toContain("policy service down");
    expect(await exists("ran.txt")).toBe(false);
  });

  it("a PreToolUse callback slower than its timeout blocks the call", async () => {
    const tools = executor({ PreToolUse: [{ timeout: 0.2, hooks: [() => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 3_000))] }] });
    const started = Date.now();
    const outcome = await tools.executeTool(block("write_to_file", { path: "slow.txt", content: "x\n" }), approving());
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(outcome.status).toBe("rejected");
    expect(outcome.content).toContain("timed out after 0.2 s");
    expect(await exists("slow.txt")).toBe(false);
  });

  it("a PostToolUse callback gets the tool's result in Claude Code's shape, and its context reaches the model", async () => {
    const responses: unknown[] = [];
    const tools = executor({
      PostToolUse: [
        {
          hooks: [
            (input) => {
              responses.push(input.tool_response);
              return { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: `checked ${input.tool_name}` } };
            },
          ],
        },
      ],
    });
    const written = await tools.executeTool(block("write_to_file", { path: "a.txt", content: "hello\n" }), approving());
    const ran = await tools.executeTool(command("echo from-the-shell"), approving());
    expect(responses[0]).toEqual({ filePath: join(folder, "a.txt"), content: "hello\n", success: true });
    expect(responses[1]).toMatchObject({ stderr: "", interrupted: false, isImage: false });
    expect(JSON.stringify(responses[1])).toContain("from-the-shell");
    expect(JSON.stringify(written.content)).toContain("checked Write");
    expect(JSON.stringify(ran.content)).toContain("checked Bash");
  });

  it("a matcher limits which calls a callback sees", async () => {
    await writeFile(join(folder, "r.txt"), "content\n");
    const seen: string[] = [];
    const tools = executor({ PreToolUse: [{ matcher: "Edit|Write", hooks: [(input) => void seen.push(input.tool_name)] }] });
    await tools.executeTool(block("read_file", { path: "r.txt" }), approving());
    await tools.executeTool(command("true"), approving());
    await tools.executeTool(block("write_to_file", { path: "w.txt", content: "x\n" }), approving());
    expect(seen).toEqual(["Write"]);
  });

  it("callbacks are told tools as Claude Code names them: Bash, Write, Edit, Read with Claude Code's inputs", async () => {
    const seen: Array<Pick<HookCallbackInputOf<"PreToolUse">, "tool_name" | "tool_input">> = [];
    const tools = executor({ PreToolUse: [{ hooks: [(input) => void seen.push({ tool_name: input.tool_name, tool_input: input.tool_input })] }] });
    await tools.executeTool(command("echo hi"), approving());
    await tools.executeTool(block("write_to_file", { path: "f.txt", content: "hello\n" }), approving());
    await tools.executeTool(block("replace_in_file", { path: "f.txt", diff: "------- SEARCH\nhello\n=======\nbye\n+++++++ REPLACE" }), approving());
    await tools.executeTool(block("read_file", { path: "f.txt" }), approving());
    const file = join(folder, "f.txt");
    expect(seen).toEqual([
      { tool_name: "Bash", tool_input: { command: "echo hi" } },
      { tool_name: "Write", tool_input: { file_path: file, content: "hello\n" } },
      { tool_name: "Edit", tool_input: { file_path: file, old_string: "hello\n", new_string: "bye\n", replace_all: false } },
      { tool_name: "Read", tool_input: { file_path: file } },
    ]);
    expect(await readFile(file, "utf8")).toBe("bye\n");
  });
});
