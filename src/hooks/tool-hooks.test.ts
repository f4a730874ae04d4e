import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolUseBlock } from "../parser/types.js";
import { z } from "zod";
import { createToolExecutor } from "../tools/create-tool-executor.js";
import { customTool } from "../tools/custom-tool.js";
import { createRecordingContext } from "../tools/test-support/recording-context.js";
import type { HookDefinition } from "./hook-definition.js";
import { HookRunner } from "./hook-runner.js";
import { withToolHooks } from "./tool-hooks.js";

let folder: string;
let outside: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "cairn-tool-hooks-"));
  outside = await mkdtemp(join(tmpdir(), "cairn-tool-hooks-outside-"));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

function hook(event: HookDefinition["event"], command: string, matcher?: string): HookDefinition {
  return { event, configuredAs: event, command, ...(matcher ? { matcher } : {}), timeoutMs: 60_000, scope: "user", origin: { kind: "settings", file: "test" }, dialect: "claude-code", fingerprint: command };
}

function executor(hooks: HookDefinition[], stops: string[] = []) {
  const runner = new HookRunner({ hooks, cwd: folder, basePayload: () => ({ session_id: "t", cwd: folder }) });
  const base = createToolExecutor({ workspace: folder, yes: false, allowOutsideWrites: false, protocol: "xml" });
  return withToolHooks(base, { runner, workspace: folder, stopTask: (reason) => stops.push(reason) });
}

function block(name: string, params: Record<string, string>): ToolUseBlock {
  return { type: "tool_use", id: `call-${name}`, name, params, partial: false };
}

const write = (path: string, content = "hello\n") => block("write_to_file", { path, content });

describe("tool hooks block, allow, rewrite and add context to tool calls", () => {
  it("a write names its one file for the checkpoint, unless a hook ran around it: a hook's command may have changed anything", async () => {
    const plain = createRecordingContext({ defaultAnswer: { response: "yes" } });
    expect((await executor([]).executeTool(write("plain.txt"), plain)).status).toBe("success");
    expect(plain.announced).toEqual([[join(await realpath(folder), "plain.txt")]]);
    const hooked = createRecordingContext({ defaultAnswer: { response: "yes" } });
    expect((await executor([hook("PostToolUse", "echo formatted > other.txt", "Write")]).executeTool(write("hooked.txt"), hooked)).status).toBe("success");
    expect(await readFile(join(folder, "other.txt"), "utf8")).toBe("formatted\n");
    expect(hooked.announced.at(-1)).toBeUndefined();
  });

  it("PreToolUse block: the tool does not run and the model is told why (exit 2, stderr)", async () => {
    const tools = executor([hook("PreToolUse", "echo 'generated files are read-only' >&2; exit 2", "Write")]);
    const context = createRecordingContext();
    const outcome = await tools.executeTool(write("gen.txt"), context);
    expect(outcome.status).toBe("rejected");
    expect(outcome.content).toContain("generated files are read-only");
    await expect(readFile(join(folder, "gen.txt"), "utf8")).rejects.toThrow();
    expect(context.asks).toEqual([]);
  });

  it("PreToolUse block: the call's card is shown once more, final, with the whole command and the hook's reason", async () => {
    const tools = executor([hook("PreToolUse", "echo 'no network here' >&2; exit 2", "Bash")]);
    const context = createRecordingContext();
    const command = "curl -s https://example.com/a/very/long/path | head -n 5";
    const outcome = await tools.executeTool(block("execute_command", { command, requires_approval: "false" }), context);
    expect(outcome.status).toBe("rejected");
    expect(context.says).toEqual([{ type: "command", text: command, partial: false, key: "call-execute_command", meta: { tool: "execute_command", command, blocked: "no network here" } }]);
    expect(context.asks).toEqual([]);
  });

  it("PreToolUse allow skips the approval ask inside the workspace", async () => {
    const tools = executor([hook("PreToolUse", `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`, "Edit|Write")]);
    const context = createRecordingContext();
    const outcome = await tools.executeTool(write("a.txt"), context);
    expect(outcome.status).toBe("success");
    expect(context.asks).toEqual([]);
    expect(await readFile(join(folder, "a.txt"), "utf8")).toBe("hello\n");
  });

  it("a hook's allow never lifts the ask for a write outside the workspace", async () => {
    const tools = executor([hook("PreToolUse", `echo '{"decision":"allow"}'`), hook("PermissionRequest", `echo '{"decision":"allow"}'`)]);
    const context = createRecordingContext({ answers: [{ response: "no" }] });
    const outcome = await tools.executeTool(write(join(outside, "x.txt")), context);
    expect(context.asks).toHaveLength(1);
    expect(outcome.status).toBe("rejected");
  });

  it("PreToolUse rewrite: updatedInput replaces the call, which is then approved like any other", async () => {
    const rewrite = `node -e 'let d="";process.stdin.on("data",c=>d+=c).on("end",()=>{const i=JSON.parse(d);console.log(JSON.stringify({hookSpecificOutput:{updatedInput:{file_path:i.tool_input.file_path.replace(/b[.]txt$/,"safe/b.txt")}}}))})'`;
    const tools = executor([hook("PreToolUse", rewrite)]);
    const context = createRecordingContext({ answers: [{ response: "yes" }] });
    const outcome = await tools.executeTool(write("b.txt"), context);
    expect(outcome.status).toBe("success");
    expect(context.asks).toHaveLength(1); // the rewritten write still asked
    expect(await readFile(join(folder, "safe", "b.txt"), "utf8")).toBe("hello\n");
  });

  it("PreToolUse and PostToolUse context reach the tool result; PostToolUse continue:false stops the task", async () => {
    await writeFile(join(folder, "r.txt"), "content\n");
    const stops: string[] = [];
    const tools = executor(
      [hook("PreToolUse", `echo '{"additionalContext":"pre note"}'`, "Read"), hook("PostToolUse", `echo '{"hookSpecificOutput":{"additionalContext":"post note"},"continue":false,"stopReason":"enough reading"}'`)],
      stops,
    );
    const outcome = await tools.executeTool(block("read_file", { path: "r.txt" }), createRecordingContext());
    expect(JSON.stringify(outcome.content)).toContain("pre note");
    expect(JSON.stringify(outcome.content)).toContain("post note");
    expect(stops).toEqual(["enough reading"]);
  });

  it("PermissionRequest answers the approval: allow runs without asking, deny refuses with the reason", async () => {
    const allowing = executor([hook("PermissionRequest", `echo '{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}'`, "Bash")]);
    const context = createRecordingContext();
    const ran = await allowing.executeTool(block("execute_command", { command: "echo from-hook-approved", requires_approval: "false" }), context);
    expect(ran.status).toBe("success");
    expect(JSON.stringify(ran.content)).toContain("from-hook-approved");
    expect(context.asks).toEqual([]);

    const denying = executor([hook("PermissionRequest", "echo 'not on fridays' >&2; exit 2")]);
    const refused = await denying.executeTool(block("execute_command", { command: "echo never", requires_approval: "false" }), createRecordingContext());
    expect(refused.status).toBe("rejected");
    expect(JSON.stringify(refused.content)).toContain("not on fridays");
  });

  it("TaskComplete (Claude Code's Stop) may say the task is not finished", async () => {
    const tools = executor([hook("TaskComplete", `echo '{"decision":"block","reason":"run the tests first"}'`)]);
    const outcome = await tools.executeTool(block("attempt_completion", { result: "done" }), createRecordingContext({ defaultAnswer: { response: "yes" } }));
    expect(outcome.completed).toBeUndefined();
    expect(outcome.content).toContain("run the tests first");
  });
});

describe("tool hooks and custom tools", () => {
  it("hooks see a custom tool under its own name: a PreToolUse allow lifts its ask, PostToolUse gets its input and result", async () => {
    const runner = new HookRunner({
      hooks: [
        hook("PreToolUse", `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`, "lookup_ticket"),
        hook("PostToolUse", `cat > '${join(folder, "post.json")}'`, "lookup_ticket"),
        hook("PreToolUse", "echo 'not for tickets' >&2; exit 2", "Bash|Read"),
      ],
      cwd: folder,
      basePayload: () => ({ session_id: "t", cwd: folder }),
    });
    const base = createToolExecutor({ workspace: folder, yes: false, allowOutsideWrites: false, protocol: "xml" });
    base.registerTool(customTool({ name: "lookup_ticket", description: "d", inputSchema: { id: z.string() }, run: ({ id }) => `ticket ${id}` }));
    const tools = withToolHooks(base, { runner, workspace: folder, stopTask: () => undefined });
    const context = createRecordingContext();
    const outcome = await tools.executeTool(block("lookup_ticket", { id: "T-9" }), context);
    expect(outcome.status).toBe("success");
    expect(context.asks).toEqual([]);
    const post = JSON.parse(await readFile(join(folder, "post.json"), "utf8")) as Record<string, unknown>;
    expect(post).toMatchObject({ hook_event_name: "PostToolUse", tool_name: "lookup_ticket", tool_input: { id: "T-9" } });
    expect(JSON.stringify(post["tool_response"])).toContain("ticket T-9");
  });
});
