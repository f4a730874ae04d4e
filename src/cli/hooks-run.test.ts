import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

const complete = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" };
const command = (line: string) => ({ text: `<execute_command>\n<command>${line}</command>\n<requires_approval>false</requires_approval>\n</execute_command>` });

async function userConfig(extra: Record<string, unknown>): Promise<void> {
  await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] }, ...extra }));
}

async function run(scenario: Scenario, extraArgs: string[] = [], task = "do the thing"): ReturnType<typeof cli.run> {
  const server = await cli.startServer(scenario);
  return cli.run(["run", "--json", "--yes", ...extraArgs, "--provider", "anthropic", "--base-url", server.url, "--api-key", "test-key", task]);
}

const requestText = (index: number): string => JSON.stringify(cli.server?.requests[index]?.body ?? null);
const hookMessages = (events: Array<Record<string, unknown>>): string[] => events.filter((event) => event["say"] === "hook_status").map((event) => String(event["text"]));

describe("hooks through cairn run", () => {
  it("TaskStart (as Claude Code's SessionStart) and UserPromptSubmit context reach the first request; hook messages in --json", async () => {
    await userConfig({
      hooks: {
        SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "echo 'the build command is make'" }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `node -e 'console.log(JSON.stringify({hookSpecificOutput:{additionalContext:"prompt seen by node"}}))'` }] }],
      },
    });
    const result = await run({ turns: [complete] });
    expect(result.status).toBe(0);
    expect(requestText(0)).toContain("the build command is make");
    expect(requestText(0)).toContain("prompt seen by node");
    expect(hookMessages(result.events).join("\n")).toMatch(/TaskStart hook echo 'the build command is make' added context|TaskStart hook .* ran/);
  });

  it("plain output shows each hook run as a hook: line", async () => {
    await userConfig({ hooks: { TaskStart: "echo 'plain context'", PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "exit 1" }] }] } });
    const server = await cli.startServer({ turns: [command("echo hi"), complete] });
    const result = await cli.run(["run", "--yes", "--provider", "anthropic", "--base-url", server.url, "--api-key", "test-key", "go"]);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain("hook: TaskStart hook echo 'plain context' added context");
    expect(result.stderr).toContain("hook: PostToolUse hook exit 1 exited with 1");
  });

  it("UserPromptSubmit exit 2 blocks the task before any request, with the reason", async () => {
    await userConfig({ hooks: { UserPromptSubmit: "echo 'prompts mentioning prod are refused' >&2; exit 2" } });
    const result = await run({ turns: [complete] }, [], "deploy to prod");
    expect(result.status).not.toBe(0);
    expect(cli.server?.requests).toHaveLength(0);
    expect(result.stdout + result.stderr).toContain("prompts mentioning prod are refused");
  });

  it("a Claude Code .claude/settings.json used unchanged: its Bash PreToolUse hook blocks a command once the folder is trusted", async () => {
    await mkdir(join(cli.sandbox.workspace, ".claude", "hooks"), { recursive: true });
    const guard = join(cli.sandbox.workspace, ".claude", "hooks", "guard.sh");
    await writeFile(guard, `#!/bin/bash\ninput=$(cat)\nif echo "$input" | grep -q 'rm -rf'; then echo "Dangerous command blocked" >&2; exit 2; fi\nexit 0\n`);
    await chmod(guard, 0o755);
    await writeFile(
      join(cli.sandbox.workspace, ".claude", "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' }] }] } }, null, 2),
    );
    await writeFile(join(cli.sandbox.workspace, "keep.txt"), "precious\n");
    const untrusted = await run({ turns: [command("rm -rf keep.txt"), complete] });
    expect(untrusted.status).toBe(0);
    expect(untrusted.stderr).toContain("did not run: this folder is not trusted");
    await cli.server?.close();

    await writeFile(join(cli.sandbox.workspace, "keep.txt"), "precious\n");
    const trusted = await run({ turns: [command("rm -rf keep.txt"), complete] }, ["--trust"]);
    expect(trusted.status).toBe(0);
    expect(requestText(1)).toContain("Dangerous command blocked");
    expect(hookMessages(trusted.events).join("\n")).toContain("PreToolUse hook");
    expect(await import("node:fs/promises").then((fs) => fs.readFile(join(cli.sandbox.workspace, "keep.txt"), "utf8"))).toBe("precious\n");
  });

  it("cairn hooks list shows each hook and where it comes from; cairn hooks test runs an event with a sample payload", async () => {
    await userConfig({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: 'echo \'{"decision":"block","reason":"sample blocked"}\'' }] }] } });
    await mkdir(join(cli.sandbox.workspace, ".clinerules", "hooks"), { recursive: true });
    await writeFile(join(cli.sandbox.workspace, ".clinerules", "hooks", "TaskStart"), "#!/bin/sh\necho hi\n", { mode: 0o755 });
    const list = await cli.run(["hooks", "list", "--json"]);
    expect(list.status).toBe(0);
    const rows = (JSON.parse(list.stdout) as { hooks: Array<Record<string, unknown>> }).hooks;
    expect(rows).toEqual([
      expect.objectContaining({ event: "PreToolUse", matcher: "Bash", scope: "user", status: "runs" }),
      expect.objectContaining({ event: "TaskStart", scope: "project", form: "executable", status: "folder not trusted" }),
    ]);
    const tested = await cli.run(["hooks", "test", "PreToolUse"]);
    expect(tested.status).toBe(0);
    expect(tested.stdout).toContain("blocked: sample blocked");
    expect(tested.stdout).toContain('"decision":"block"');
    const trust = await cli.run(["hooks", "trust"]);
    expect(trust.stdout).toContain("Trusted 1 project hook(s)");
    const after = await cli.run(["hooks", "list"]);
    expect(after.stdout).toMatch(/TaskStart\s+matcher \*\s+runs/);
  });
});

describe("custom commands through cairn run", () => {
  it('cairn run "/name args" runs the command with its arguments and its model', async () => {
    await mkdir(join(cli.sandbox.workspace, ".cairn", "commands"), { recursive: true });
    await writeFile(join(cli.sandbox.workspace, ".cairn", "commands", "fix.md"), "---\ndescription: Fix an issue\nmodel: claude-from-front-matter\n---\nFix issue #$1 in $2, then run the tests.\n");
    await mkdir(join(cli.sandbox.workspace, ".clinerules", "workflows"), { recursive: true });
    await writeFile(join(cli.sandbox.workspace, ".clinerules", "workflows", "ship.md"), "Ship it: $ARGUMENTS\n");
    const result = await run({ turns: [complete] }, [], "/fix 42 src/parser.ts");
    expect(result.status).toBe(0);
    expect(requestText(0)).toContain("Fix issue #42 in src/parser.ts, then run the tests.");
    expect((cli.server?.requests[0]?.body as { model?: string }).model).toBe("claude-from-front-matter");
    expect(result.stderr).toContain("Running the command /fix");
    await cli.server?.close();
    const workflow = await run({ turns: [complete] }, [], "/ship.md to staging");
    expect(workflow.status).toBe(0);
    expect(requestText(0)).toContain("Ship it: to staging");
  });
});

describe("UserPromptSubmit and TaskResume hooks on resume", () => {
  it("the message a task is resumed with goes through UserPromptSubmit; TaskResume context reaches the request", async () => {
    await userConfig({
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `input=$(cat); case "$input" in *prod*) echo 'no prod talk' >&2; exit 2;; esac; echo 'ctx for the message'` }] }],
        SessionStart: [{ matcher: "resume", hooks: [{ type: "command", command: "echo 'RESUMED-CONTEXT'" }] }],
      },
    });
    const first = await run({ turns: [complete, complete] });
    expect(first.status).toBe(0);
    const taskId = String(first.events[0]?.["taskId"]);
    const args = (message: string) => ["resume", "--json", "--yes", "--provider", "anthropic", "--base-url", cli.server?.url ?? "", "--api-key", "test-key", taskId, message];
    const blocked = await cli.run(args("ship it to prod"));
    expect(blocked.status).not.toBe(0);
    expect(blocked.stdout).toContain("no prod talk");
    expect(cli.server?.requests).toHaveLength(1);
    const resumed = await cli.run(args("one more thing"));
    expect(resumed.status).toBe(0);
    expect(requestText(1)).toContain("ctx for the message");
    expect(requestText(1)).toContain("RESUMED-CONTEXT");
    expect(requestText(1)).toContain("one more thing");
  });
});
