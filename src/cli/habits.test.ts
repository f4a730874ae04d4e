/** Issue #12 command-line habits through the real CLI (bin/cairn → dist/: `npm run build` first). */
import { describe, expect, it } from "vitest";
import { TaskStore } from "../store/task-store.js";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

describe("command-line habits: -p, -c, --resume, a task from stdin, help", () => {
  it("cairn -p runs like cairn run; -c continues the folder's latest task; --resume ID continues that one", { timeout: 90_000 }, async () => {
    const server = await cli.startServer({ turns: [done("printed"), done("continued"), done("resumed by id")] });
    const printed = await cli.run(["-p", "--yes", ...anthropicArgs(server), "say hi"]);
    expect(printed.status).toBe(0);
    expect(printed.stderr).toMatch(/^task \S+$/m);
    expect(printed.stdout).toContain("printed");
    const [task] = await new TaskStore({ dataDir: cli.sandbox.dataDir }).list();

    const continued = await cli.run(["-c", "-p", "--yes", ...anthropicArgs(server), "one more thing"]);
    expect(continued.status).toBe(0);
    expect(continued.stderr).toContain(`resuming task ${task!.taskId}`);
    expect(JSON.stringify(server.requests[1]?.body)).toContain("one more thing");

    const byId = await cli.run(["--resume", task!.taskId, "-p", "--yes", ...anthropicArgs(server)]);
    expect(byId.status).toBe(0);
    expect(byId.stdout).toContain("resumed by id");
  });

  it("cairn run - reads the task from standard input; asks then follow --on-ask", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({
      turns: [{ text: "<write_to_file>\n<path>a.txt</path>\n<content>\na\n</content>\n</write_to_file>" }, done("refused and stopped")],
    });
    const result = await cli.run(["run", "--on-ask", "deny", ...anthropicArgs(server), "-"], { stdin: "write a.txt\nplease\n" });
    expect(JSON.stringify(server.requests[0]?.body)).toContain("write a.txt\\nplease");
    // The write was asked about, nobody could answer (stdin was the task): denied.
    expect(JSON.stringify(server.requests[1]?.body)).toMatch(/denied|refused|did not approve|rejected/i);
    expect([0, 1]).toContain(result.status);
  });

  it("cairn help prints the usage; -c with no task in the folder says so", async () => {
    const help = await cli.run(["help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: cairn/);
    expect(help.stdout).toMatch(/--continue/);
    const none = await cli.run(["-c", "-p", "--provider", "anthropic", "--api-key", "k"]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/no task in this folder/);
  });

  it.skipIf(!tmuxAvailable())("cairn --resume without an id shows a picker (title, age, status, cost) and opens the chosen task in the TUI", { timeout: 120_000 }, async () => {
    const server = await cli.startServer({ turns: [done("first"), done("second"), done("picked the first")] });
    expect((await cli.run(["run", "--yes", ...anthropicArgs(server), "the first task"])).status).toBe(0);
    expect((await cli.run(["run", "--yes", ...anthropicArgs(server), "the second task"])).status).toBe(0);
    const terminal = await cli.openCairn(["--resume", ...anthropicArgs(server)], { columns: 120 });
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
