/** Issue #12 command-line habits through the real CLI (bin/cairn → dist/: `npm run build` first). */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedServer } from "../llm/scripted/server.js";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { TaskStore } from "../store/task-store.js";
import { startTmux, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import type { TmuxSession } from "../ui/tui/test-support/tmux.js";
import { cairnBin, makeSandbox, runCli } from "./test-support/cli-harness.js";
import type { Sandbox } from "./test-support/cli-harness.js";

let sandbox: Sandbox;
let server: ScriptedServer | undefined;
let terminal: TmuxSession | undefined;

beforeEach(async () => {
  sandbox = await makeSandbox();
});
afterEach(async () => {
  await terminal?.kill();
  terminal = undefined;
  await server?.close();
  server = undefined;
  await sandbox.cleanup();
});

const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
const provider = (target: ScriptedServer): string[] => ["--provider", "anthropic", "--base-url", target.url, "--api-key", "test-key"];

describe("issue #12 command-line habits", () => {
  it("cairn -p runs like cairn run; -c continues the folder's latest task; --resume ID continues that one", { timeout: 90_000 }, async () => {
    server = await startScriptedServer({ scenario: { turns: [done("printed"), done("continued"), done("resumed by id")] } });
    const printed = await runCli(["-p", "--yes", ...provider(server), "say hi"], { env: sandbox.env, cwd: sandbox.workspace });
    expect(printed.status).toBe(0);
    expect(printed.stdout).toMatch(/^task \S+/);
    expect(printed.stdout).toContain("printed");
    const [task] = await new TaskStore({ dataDir: sandbox.dataDir }).list();

    const continued = await runCli(["-c", "-p", "--yes", ...provider(server), "one more thing"], { env: sandbox.env, cwd: sandbox.workspace });
    expect(continued.status).toBe(0);
    expect(continued.stdout).toContain(`resuming task ${task!.taskId}`);
    expect(JSON.stringify(server.requests[1]?.body)).toContain("one more thing");

    const byId = await runCli(["--resume", task!.taskId, "-p", "--yes", ...provider(server)], { env: sandbox.env, cwd: sandbox.workspace });
    expect(byId.status).toBe(0);
    expect(byId.stdout).toContain("resumed by id");
  });

  it("cairn run - reads the task from standard input; asks then follow --on-ask", { timeout: 60_000 }, async () => {
    server = await startScriptedServer({
      scenario: {
        turns: [
          { text: "<write_to_file>\n<path>a.txt</path>\n<content>\na\n</content>\n</write_to_file>" },
          done("refused and stopped"),
        ],
      },
    });
    const result = await runCli(["run", "--on-ask", "deny", ...provider(server), "-"], { env: sandbox.env, cwd: sandbox.workspace, stdin: "write a.txt\nplease\n" });
    expect(JSON.stringify(server.requests[0]?.body)).toContain("write a.txt\\nplease");
    // The write was asked about, nobody could answer (stdin was the task): denied.
    expect(JSON.stringify(server.requests[1]?.body)).toMatch(/denied|refused|did not approve|rejected/i);
    expect([0, 1]).toContain(result.status);
  });

  it("cairn help prints the usage; -c with no task in the folder says so", async () => {
    const help = await runCli(["help"], { env: sandbox.env, cwd: sandbox.workspace });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: cairn/);
    expect(help.stdout).toMatch(/--continue/);
    const none = await runCli(["-c", "-p", "--provider", "anthropic", "--api-key", "k"], { env: sandbox.env, cwd: sandbox.workspace });
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/no task in this folder/);
  });

  it.skipIf(!tmuxAvailable())("cairn --resume without an id shows a picker (title, age, status, cost) and opens the chosen task in the TUI", { timeout: 120_000 }, async () => {
    server = await startScriptedServer({ scenario: { turns: [done("first"), done("second"), done("picked the first")] } });
    expect((await runCli(["run", "--yes", ...provider(server), "the first task"], { env: sandbox.env, cwd: sandbox.workspace })).status).toBe(0);
    expect((await runCli(["run", "--yes", ...provider(server), "the second task"], { env: sandbox.env, cwd: sandbox.workspace })).status).toBe(0);
    terminal = await startTmux({
      command: [process.execPath, cairnBin, "--resume", ...provider(server)],
      cwd: sandbox.workspace,
      env: { CAIRN_HOME: sandbox.dataDir, XDG_CONFIG_HOME: sandbox.configDir, NO_COLOR: "1" },
      columns: 120,
    });
    const screen = await terminal.waitFor(/Resume which\?/, { timeoutMs: 30_000 });
    expect(screen).toMatch(/1\. the second task\s+(just now|\d+ min ago)\s+completed\s+\$\d/);
    expect(screen).toMatch(/2\. the first task/);
    await terminal.sendText("2");
    await terminal.sendKeys("Enter");
    await terminal.waitFor(/› the first task/, { timeoutMs: 30_000 });
    await terminal.waitFor(/picked the first/, { timeoutMs: 60_000 });
    await terminal.sendKeys("C-c");
    await terminal.waitFor(/Press Ctrl\+C/, { timeoutMs: 10_000 });
    await terminal.sendKeys("C-c");
    expect(await terminal.waitForExit({ timeoutMs: 30_000 })).toBe(0);
  });
});
