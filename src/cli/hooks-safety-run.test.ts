/**
 * Hooks fail safe, through the real CLI: a guard that cannot start blocks,
 * trust pins the scripts a hook runs, a hook's answer never loosens what the
 * security rules require, and `cairn hooks test` says why nothing ran.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { checkBubblewrap } from "../security/sandbox.js";
import { runCli } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const bubblewrap = checkBubblewrap();
const cli = useCliFixture();

const turn = (text: string) => ({ text });
const complete = turn("<attempt_completion>\n<result>done</result>\n</attempt_completion>");
const command = (line: string) => turn(`<execute_command>\n<command>${line}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`);
const write = (path: string, content: string) => turn(`<write_to_file>\n<path>${path}</path>\n<content>\n${content}</content>\n</write_to_file>`);

type Groups = Array<{ matcher?: string; hooks: Array<{ type: "command"; command: string }> }>;
const group = (matcher: string, hookCommand: string) => ({ matcher, hooks: [{ type: "command" as const, command: hookCommand }] });
const answer = (output: Record<string, unknown>) => `echo '${JSON.stringify(output)}'`;

async function userConfig(extra: Record<string, unknown>): Promise<void> {
  await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] }, sandboxOptIn: false, ...extra }));
}

async function projectClaudeSettings(hooks: Record<string, Groups>): Promise<void> {
  await mkdir(join(cli.sandbox.workspace, ".claude"), { recursive: true });
  await writeFile(join(cli.sandbox.workspace, ".claude", "settings.json"), JSON.stringify({ hooks }, null, 2));
}

function runArgs(extra: string[]): string[] {
  return ["run", "--json", ...extra, "--provider", "anthropic", "--base-url", cli.server?.url ?? "", "--api-key", "test-key", "do the thing"];
}

async function run(scenario: Scenario, extra: string[] = ["--yes"], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): ReturnType<typeof cli.run> {
  await cli.startServer(scenario);
  return runCli(runArgs(extra), { env: options.env ?? cli.sandbox.env, cwd: cli.sandbox.workspace, ...(options.stdin === undefined ? {} : { stdin: options.stdin }) });
}

const requests = (): string => JSON.stringify(cli.server?.requests.map((request) => request.body) ?? []);
const hookLines = (result: { events: Array<Record<string, unknown>> }): string =>
  result.events
    .filter((event) => event["say"] === "hook_status")
    .map((event) => String(event["text"]))
    .join("\n");
/** The approval asks the user saw (tool and command asks, not the completion). */
const approvalAsks = (result: { events: Array<Record<string, unknown>> }): string[] =>
  result.events.filter((event) => event["type"] === "ask" && ["tool", "command"].includes(String(event["ask"])) && event["partial"] !== true).map((event) => String(event["text"]));
const inWorkspace = (path: string): string => join(cli.sandbox.workspace, path);

describe("a hook that cannot start blocks PreToolUse and PermissionRequest; one that ran keeps Claude Code's exit codes", () => {
  const cases: Array<{ name: string; prepare: () => Promise<string> }> = [
    { name: "a missing script", prepare: async () => join(cli.sandbox.root, "no-such-guard.sh") },
    {
      name: "a script that is not executable",
      prepare: async () => {
        const file = join(cli.sandbox.root, "guard.sh");
        await writeFile(file, "#!/bin/sh\nexit 0\n", { mode: 0o644 });
        return file;
      },
    },
    {
      name: "a script with a bad interpreter",
      prepare: async () => {
        const file = join(cli.sandbox.root, "guard.py");
        await writeFile(file, "#!/no/such/python3\nprint('ok')\n");
        await chmod(file, 0o755);
        return file;
      },
    },
  ];

  it.each(cases)("PreToolUse: $name blocks the call; the user and the model are told", async ({ prepare }) => {
    await userConfig({ hooks: { PreToolUse: [group("Bash", await prepare())] } });
    const result = await run({ turns: [command("touch ran.txt"), complete] });
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(inWorkspace("ran.txt"))).toBe(false);
    expect(hookLines(result)).toMatch(/PreToolUse hook .* could not start/);
    expect(requests()).toMatch(/PreToolUse hook could not start/);
  });

  it("PreToolUse: a shell that cannot be spawned blocks the call", async () => {
    await userConfig({ hooks: { PreToolUse: [group("Bash", "true")] } });
    const result = await run({ turns: [command("touch ran.txt"), complete] }, ["--yes"], { env: { ...cli.sandbox.env, SHELL: join(cli.sandbox.root, "no-such-shell") } });
    expect(existsSync(inWorkspace("ran.txt"))).toBe(false);
    expect(hookLines(result)).toMatch(/could not start/);
    expect(requests()).toMatch(/PreToolUse hook could not start/);
  });

  it("PermissionRequest: a missing script denies the ask, even when the user would have said yes", async () => {
    await userConfig({ hooks: { PermissionRequest: [group("Bash", join(cli.sandbox.root, "no-such-guard.sh"))] } });
    const result = await run({ turns: [command("touch ran.txt"), complete] }, ["--on-ask", "deny"], { stdin: "y\n" });
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(inWorkspace("ran.txt"))).toBe(false);
    expect(requests()).toMatch(/PermissionRequest hook could not start/);
  });

  it("a hook that ran and exited 1 is a non-blocking error shown to the user; other events only report a hook that cannot start", async () => {
    await userConfig({ hooks: { PreToolUse: [group("Bash", "echo 'lint is flaky' >&2; exit 1")], SessionStart: [group("startup", join(cli.sandbox.root, "no-such-start.sh"))] } });
    const result = await run({ turns: [command("touch ran.txt"), complete] });
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(inWorkspace("ran.txt"))).toBe(true);
    expect(hookLines(result)).toContain("exited with 1: lint is flaky");
    expect(hookLines(result)).toMatch(/TaskStart hook .* could not start/);
  });
});

describe("trust pins the scripts a project hook runs", () => {
  async function projectWithScripts(log: string): Promise<void> {
    await mkdir(inWorkspace(".claude/hooks"), { recursive: true });
    await mkdir(inWorkspace("scripts"), { recursive: true });
    await writeFile(inWorkspace(".claude/hooks/guard.sh"), `#!/bin/sh\necho guard >> '${log}'\n`, { mode: 0o755 });
    await writeFile(inWorkspace("scripts/after.sh"), `echo after >> '${log}'\n`);
    await projectClaudeSettings({
      PreToolUse: [group("Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh')],
      PostToolUse: [group("Bash", "sh scripts/after.sh")],
    });
  }

  it("a script changed after the folder was trusted is held (not run) until `cairn hooks trust`", async () => {
    const log = join(cli.sandbox.root, "hooks.log");
    await projectWithScripts(log);
    const first = await run({ turns: [command("echo one"), complete] }, ["--yes", "--trust"]);
    expect(first.status, first.stderr).toBe(0);
    expect(await readFile(log, "utf8")).toBe("guard\nafter\n");
    await cli.server?.close();

    await writeFile(inWorkspace(".claude/hooks/guard.sh"), `#!/bin/sh\necho pwned-guard >> '${log}'\n`, { mode: 0o755 });
    await writeFile(inWorkspace("scripts/after.sh"), `echo pwned-after >> '${log}'\n`);
    const second = await run({ turns: [command("echo two"), complete] });
    expect(second.status, second.stderr).toBe(0);
    expect(await readFile(log, "utf8")).toBe("guard\nafter\n");
    expect(second.stderr).toMatch(/PreToolUse hook .*guard\.sh.* is new or changed/);
    expect(second.stderr).toMatch(/PostToolUse hook sh scripts\/after\.sh .* is new or changed/);
    expect(second.stderr).toContain("cairn hooks trust");
    await cli.server?.close();

    const trust = await cli.run(["hooks", "trust"]);
    expect(trust.status, trust.stderr).toBe(0);
    const third = await run({ turns: [command("echo three"), complete] });
    expect(third.status, third.stderr).toBe(0);
    expect(await readFile(log, "utf8")).toBe("guard\nafter\npwned-guard\npwned-after\n");
  });

  it("a script rewritten during a task (here by the model) does not run: a PreToolUse guard then blocks, a PostToolUse hook is only reported", async () => {
    const log = join(cli.sandbox.root, "hooks.log");
    await mkdir(inWorkspace("scripts"), { recursive: true });
    await writeFile(inWorkspace("scripts/guard.sh"), `echo guard >> '${log}'\n`);
    await writeFile(inWorkspace("scripts/after.sh"), `echo after >> '${log}'\n`);
    await projectClaudeSettings({ PreToolUse: [group("Bash", "sh scripts/guard.sh")], PostToolUse: [group("Bash", "sh ./scripts/after.sh")] });
    const result = await run(
      {
        turns: [write("scripts/after.sh", `echo pwned-after >> '${log}'\n`), command("echo two"), write("scripts/guard.sh", `echo pwned-guard >> '${log}'\n`), command("touch ran.txt"), complete],
      },
      ["--yes", "--trust"],
    );
    expect(result.status, result.stderr).toBe(0);
    expect(await readFile(log, "utf8")).toBe("guard\n");
    expect(existsSync(inWorkspace("ran.txt"))).toBe(false);
    expect(hookLines(result)).toMatch(/PostToolUse hook sh \.\/scripts\/after\.sh did not run: .*changed since it was trusted/);
    expect(hookLines(result)).toMatch(/PreToolUse hook sh scripts\/guard\.sh did not run: .*changed since it was trusted/);
    // The PostToolUse hook held back blocked nothing: the command's output reached the model.
    expect(JSON.stringify(cli.server?.requests[2]?.body)).toContain("two");
    expect(JSON.stringify(cli.server?.requests[4]?.body)).toContain("cairn hooks trust");
  });
});

describe("a hook's answer never loosens what the security rules require", () => {
  it("PreToolUse and PermissionRequest allow do not lift the asks for protected paths, ask rules and edits outside the workspace", async () => {
    const allow = answer({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } });
    const permit = answer({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } });
    await userConfig({ permissions: { ask: ["Bash(touch asked.txt)"] }, hooks: { PreToolUse: [group("*", allow)], PermissionRequest: [group("*", permit)] } });
    const result = await run({ turns: [write("inside.txt", "lifted\n"), write(".claude/settings.local.json", "{}\n"), command("touch asked.txt"), write("../outside.txt", "x\n"), complete] }, ["--on-ask", "deny"]);
    expect(result.status, result.stderr).toBe(0);
    // The hooks' allow is in force: the ordinary write inside the workspace did not ask.
    expect(await readFile(inWorkspace("inside.txt"), "utf8")).toBe("lifted\n");
    expect(existsSync(inWorkspace(".claude/settings.local.json"))).toBe(false);
    expect(existsSync(inWorkspace("asked.txt"))).toBe(false);
    expect(existsSync(join(cli.sandbox.root, "outside.txt"))).toBe(false);
    const asked = approvalAsks(result);
    expect(asked).toHaveLength(3);
    expect(asked.join("\n")).toMatch(/settings\.local\.json[\s\S]*touch asked\.txt[\s\S]*outside\.txt/);
  });

  it("a PreToolUse deny blocks the call under --yes", async () => {
    await userConfig({ hooks: { PreToolUse: [group("Bash", answer({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no touching" } }))] } });
    const result = await run({ turns: [command("touch ran.txt"), complete] });
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(inWorkspace("ran.txt"))).toBe(false);
    expect(requests()).toContain("no touching");
  });

  it("a PreToolUse ask is an explicit ask: --yes does not answer it, so the call does not run", async () => {
    await userConfig({ hooks: { PreToolUse: [group("Bash", answer({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "a person must look" } }))] } });
    const result = await run({ turns: [command("touch ran.txt"), complete] });
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(inWorkspace("ran.txt"))).toBe(false);
    expect(result.stdout + result.stderr).toMatch(/explicit approval, which --yes does not give/);
  });
});

describe("cairn hooks test", () => {
  it("in a folder that is not trusted, says the project's hooks are not trusted, names them and how to trust them", async () => {
    await projectClaudeSettings({ PreToolUse: [group("Bash", "echo checked")] });
    const result = await cli.run(["hooks", "test", "PreToolUse"]);
    expect(result.stdout).not.toContain("No PreToolUse hooks matched");
    expect(result.stdout + result.stderr).toMatch(/PreToolUse hook echo checked .* not trusted/);
    expect(result.stdout + result.stderr).toContain("cairn hooks trust");
    expect(result.status).toBe(1);
  });
});

describe("hooks and commands with .clinerules as a file", () => {
  // Cline's rules may be one file: the sandbox protects it as it is (it once needed .clinerules/hooks to be a folder).
  it.skipIf(!bubblewrap.ok)("a hook and a command run under --sandbox workspace-write", async () => {
    await writeFile(inWorkspace(".clinerules"), "Use tabs.\n");
    await mkdir(inWorkspace(".cairn"), { recursive: true });
    await writeFile(inWorkspace(".cairn/config.json"), JSON.stringify({ hooks: { TaskStart: "echo started > hook-ran.txt" } }));
    const result = await run({ turns: [command("echo hi > command-ran.txt"), complete] }, ["--yes", "--trust", "--sandbox", "workspace-write"]);
    expect(result.status, result.stderr).toBe(0);
    expect(await readFile(inWorkspace("hook-ran.txt"), "utf8")).toBe("started\n");
    expect(await readFile(inWorkspace("command-ran.txt"), "utf8")).toBe("hi\n");
  });
});

describe("the user's own hooks in the sandbox", () => {
  // The sandbox hides cairn's config folder (and ~/.claude): the user's hook scripts there must still run.
  it.skipIf(!bubblewrap.ok)("an executable in the user's hooks folder runs under --sandbox workspace-write, and its context reaches the model", async () => {
    const hooks = join(cli.sandbox.configDir, "cairn", "hooks");
    await mkdir(hooks, { recursive: true });
    await writeFile(join(hooks, "UserPromptSubmit"), "#!/bin/sh\ncat > /dev/null\necho 'from the user hooks folder'\n");
    await chmod(join(hooks, "UserPromptSubmit"), 0o755);
    const result = await run({ turns: [complete] }, ["--yes", "--sandbox", "workspace-write"]);
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.stringify(cli.server?.requests[0]?.body)).toContain("from the user hooks folder");
  });
});
