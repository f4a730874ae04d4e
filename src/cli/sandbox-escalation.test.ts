/**
 * Escalation: a command that fails because of the sandbox (here a write to
 * git's hooks folder, read-only in the sandbox, by inline code the parse
 * cannot follow) is offered to run again outside it, in an explicit ask that
 * says why; --yes alone never reruns it.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkBubblewrap } from "../security/sandbox.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { repositoryWith } from "../test-support/git-repository.js";

// The user's own config leaves the sandbox at its default: on.
const cli = useCliFixture({
  prepare: async (sandbox) => {
    await writeFile(join(sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] } }));
    await repositoryWith(sandbox.workspace, { "app.txt": "app\n" });
  },
});

// Inline code: the parse cannot see what it writes, so it runs in the sandbox, which refuses the write.
const hookWrite = `python3 -c "open('.git/hooks/pre-commit', 'w').write('echo hooked')"`;
const command = `<execute_command>\n<command>${hookWrite}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`;
const complete = "<attempt_completion>\n<result>done</result>\n</attempt_completion>";

async function run(extra: string[], stdin?: string): Promise<{ status: number; stderr: string; toolResult: string; hook: string }> {
  const server = await cli.startServer({ turns: [{ text: command }, { text: complete }] });
  const result = await cli.run(["run", "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test", ...extra, "install the hook"], stdin === undefined ? {} : { stdin });
  const toolResult = JSON.stringify(server.requests[1]?.body ?? {});
  const hookFile = join(cli.sandbox.workspace, ".git", "hooks", "pre-commit");
  return { status: result.status, stderr: result.stderr, toolResult, hook: existsSync(hookFile) ? await readFile(hookFile, "utf8") : "" };
}

describe.skipIf(!checkBubblewrap().ok)("a command that fails because of the sandbox", () => {
  it("under --yes is not run again outside it, and the model is told why", { timeout: 60_000 }, async () => {
    const result = await run(["--yes"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.hook).toBe("");
    expect(result.toolResult).toMatch(/Read-only file system/);
    expect(result.toolResult).toMatch(/It was not run outside the sandbox: running it outside the sandbox needs the user's explicit approval/);
  });

  it("is offered to run again outside the sandbox in an ask that says why; answered yes, it runs there", { timeout: 60_000 }, async () => {
    // In the sandbox the command runs unasked; the one ask is the escalation's.
    const result = await run([], "y\n");
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/It failed in the sandbox: it tried to write outside the workspace or to a protected path \("[^"]*Read-only file system/);
    expect(result.stderr).toMatch(/Run it again outside the sandbox, with your full permissions\?\)\n\(answer "always" to allow Unsandboxed\(python3:\*\) from now on/);
    expect(result.hook).toBe("echo hooked");
    expect(result.toolResult).toMatch(/it was run again outside the sandbox: you approved running it outside the sandbox/);
  });

  it("answered no, stays failed, and nothing was written", { timeout: 60_000 }, async () => {
    const result = await run([], "n\n");
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Run it again outside the sandbox/);
    expect(result.hook).toBe("");
    expect(result.toolResult).toMatch(/It was not run outside the sandbox/);
  });

  it('answered "always", runs outside and saves the Unsandboxed rule it offered in the user config', { timeout: 60_000 }, async () => {
    const result = await run([], "always\n");
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr, "an answer, not a message of the user's").not.toMatch(/^> always/m);
    expect(result.hook).toBe("echo hooked");
    const config = JSON.parse(await readFile(join(cli.sandbox.configDir, "cairn", "config.json"), "utf8")) as { permissions?: { allow?: string[] } };
    expect(config.permissions?.allow).toEqual(["Unsandboxed(python3:*)"]);
  });
});
