/**
 * Issue #12 "Defects found", as a user meets them on the command line: each
 * test runs the real CLI (bin/cairn → dist/, run `npm run build` first)
 * against the scripted LLM server on loopback.
 */
import { describe, expect, it } from "vitest";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { TaskStore } from "../store/task-store.js";
import { runCli, startCli } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

const anthropic = (target: ScriptedServer): string[] => ["--provider", "anthropic", "--base-url", target.url, "--api-key", "test-key"];

describe("the CLI says once, and clearly, what went wrong and what to change", () => {
  it("Esc / SIGINT during a running command: its output is one message, not two", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: [{ text: "<execute_command>\n<command>echo output-marker; sleep 30</command>\n<requires_approval>false</requires_approval>\n</execute_command>" }] });
    const run = startCli(["run", "--json", "--yes", ...anthropic(server), "run it"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    await run.waitForOutput(/"say":"command_output"/);
    run.child.kill("SIGINT");
    expect(await run.exit).toBe(130);
    const outputs = run.events().filter((event) => event["say"] === "command_output");
    expect(new Set(outputs.map((event) => event["id"])).size).toBe(1);
  });

  it("an unreachable base URL: after the retries, one message naming the URL and what to change, no Retry? ask", { timeout: 60_000 }, async () => {
    const run = startCli(["run", "--provider", "openai", "--base-url", "http://127.0.0.1:9/v1", "--api-key", "test-key", "hi"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    expect(await run.exit).toBe(1);
    const all = run.stdout + run.stderr;
    expect(all).not.toMatch(/Retry\?/);
    expect(all).not.toContain("api_req_failed");
    expect(all.match(/Cannot reach http:\/\/127\.0\.0\.1:9\/v1/g)).toHaveLength(1);
    expect(all).toMatch(/Check the base URL/);
  });

  it("a 401 is said once with what to set, and never offers Retry?", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: [{ error: { status: 401 } }] });
    const run = startCli(["run", ...anthropic(server), "hi"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    expect(await run.exit).toBe(1);
    const all = run.stdout + run.stderr;
    expect(all).not.toMatch(/Retry\?/);
    expect(all.match(/rejected the API key/g)).toHaveLength(1);
    expect(all).toMatch(/ANTHROPIC_API_KEY/);
    expect(server.requests).toHaveLength(1);
  });

  it("a 403 and a 404 say what to change, once", { timeout: 60_000 }, async () => {
    let server = await cli.startServer({ turns: [{ error: { status: 403 } }] });
    const forbidden = startCli(["run", ...anthropic(server), "hi"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    expect(await forbidden.exit).toBe(1);
    expect((forbidden.stdout + forbidden.stderr).match(/has no access to this model/g)).toHaveLength(1);
    await server.close();
    server = await cli.startServer({ turns: [{ error: { status: 404 } }] });
    const missing = startCli(["run", ...anthropic(server), "--model", "no-such-model", "hi"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    expect(await missing.exit).toBe(1);
    const all = missing.stdout + missing.stderr;
    expect(all.match(/check the model id/g)).toHaveLength(1);
    expect(all).not.toMatch(/Retry\?/);
  });

  it("small: an empty task is a usage error (exit 2)", async () => {
    const result = await cli.run(["run", "--provider", "anthropic", "--api-key", "k", ""]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/the task is empty/);
  });

  it("small: resume nosuchid without a key complains about the id; resume of a task whose folder was deleted stops clearly", { timeout: 60_000 }, async () => {
    const missing = await cli.run(["resume", "nosuchid"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no task "nosuchid"/);
    expect(missing.stderr).not.toMatch(/API key/);

    const server = await cli.startServer({ turns: [{ text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" }] });
    const folder = join(cli.sandbox.root, "gone");
    await mkdir(folder);
    const first = await cli.run(["run", "--yes", "--cwd", folder, ...anthropic(server), "a task"]);
    expect(first.status).toBe(0);
    await rm(folder, { recursive: true, force: true });
    const [task] = await new TaskStore({ dataDir: cli.sandbox.dataDir }).list();
    const resumed = await cli.run(["resume", "--yes", ...anthropic(server), task!.taskId, "go on"]);
    expect(resumed.status).toBe(2);
    expect(resumed.stderr).toMatch(/no longer exists/);
    expect(server.requests).toHaveLength(1);
  });

  it("small: restore without --files|--task|--both restores both (as /restore does); history, show, checkpoints, diff and restore take --data-dir", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({
      turns: [{ text: "<write_to_file>\n<path>a.txt</path>\n<content>\na\n</content>\n</write_to_file>" }, { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" }],
    });
    const dataDir = join(cli.sandbox.root, "elsewhere");
    const env = { ...cli.sandbox.env };
    const run = await runCli(["run", "--yes", "--data-dir", dataDir, ...anthropic(server), "write a"], { env, cwd: cli.sandbox.workspace });
    expect(run.status).toBe(0);
    const [task] = await new TaskStore({ dataDir }).list();
    const id = task!.taskId;
    const history = await runCli(["history", "--data-dir", dataDir], { env, cwd: cli.sandbox.workspace });
    expect(history.status).toBe(0);
    expect(history.stdout).toContain(id);
    const show = await runCli(["show", id, "--data-dir", dataDir], { env, cwd: cli.sandbox.workspace });
    expect(show.stdout).toContain("write a");
    const checkpoints = await runCli(["checkpoints", id, "--data-dir", dataDir], { env, cwd: cli.sandbox.workspace });
    const hash = /^([0-9a-f]{12})/m.exec(checkpoints.stdout)?.[1];
    expect(hash).toBeDefined();
    const diff = await runCli(["diff", id, "--data-dir", dataDir], { env, cwd: cli.sandbox.workspace });
    expect(diff.status).toBe(0);
    const restored = await runCli(["restore", id, hash!, "--files", "--data-dir", dataDir], { env, cwd: cli.sandbox.workspace });
    expect(restored.status).toBe(0);
    const noMode = await runCli(["restore", id, hash!, "--data-dir", dataDir], { env, cwd: cli.sandbox.workspace });
    expect(noMode.status, noMode.stderr).toBe(0);
    expect(noMode.stdout).toMatch(/Files restored to checkpoint/);
    expect(noMode.stdout).toMatch(/Conversation cut back to checkpoint/);
    const twoModes = await runCli(["restore", id, hash!, "--files", "--task", "--data-dir", dataDir], { env, cwd: cli.sandbox.workspace });
    expect(twoModes.status).toBe(2);
    expect(twoModes.stderr).toMatch(/at most one of --files/);
  });

  it("small: --plan --yes prints the plan as the result and stops before acting", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({
      turns: [{ text: "<plan_mode_respond>\n<response>1. write b.txt\n2. test it</response>\n</plan_mode_respond>" }, { text: "<write_to_file>\n<path>b.txt</path>\n<content>\nb\n</content>\n</write_to_file>" }],
    });
    const result = await cli.run(["run", "--plan", "--yes", ...anthropic(server), "plan b"]);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/Task completed/);
    expect(result.stdout).toBe("1. write b.txt\n2. test it\n");
    expect(server.requests).toHaveLength(1);
  });

  it("small: --cwd at a file says it is a file", async () => {
    const file = join(cli.sandbox.workspace, "note.txt");
    await writeFile(file, "x");
    const result = await cli.run(["run", "--cwd", file, "--provider", "anthropic", "--api-key", "k", "hi"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/is a file, not a folder/);
  });

  it("small: a setting of the wrong type stops plugin, hooks, permissions and sandbox with the file and key named, not a crash", { timeout: 60_000 }, async () => {
    await mkdir(join(cli.sandbox.configDir, "cairn"), { recursive: true });
    await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), JSON.stringify({ maxMistakes: "lots" }));
    for (const command of [["plugin", "list"], ["hooks", "list"], ["permissions"], ["sandbox"]]) {
      const result = await cli.run(command);
      expect(result.status, command.join(" ")).toBe(2);
      expect(result.stderr).toMatch(/config\.json has invalid settings:\n {2}maxMistakes: .*expected number/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
