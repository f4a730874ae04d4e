import { access } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { TaskStore } from "../store/task-store.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

describe.skipIf(!tmuxAvailable())("the terminal UI in a real terminal (tmux, 80x30)", () => {
  it("approves an edit, then aborts a running command with Esc; the task stays resumable", { timeout: 120_000 }, async () => {
    const server = await cli.startServer({
      turns: [
        { text: "I'll create the file.\n<write_to_file>\n<path>hello.txt</path>\n<content>\nhello\n</content>\n</write_to_file>", chunkSize: 8 },
        { text: "Now a long command.\n<execute_command>\n<command>echo output-marker; sleep 30</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
      ],
    });
    const terminal = await cli.openCairn([...anthropicArgs(server), "write hello"]);
    await terminal.waitFor(/Allow this\?/, { timeoutMs: 60_000 });
    expect(await terminal.capture()).toMatch(/\+hello/);
    await terminal.sendKeys("1");
    await terminal.waitFor(/Run this command\?/, { timeoutMs: 60_000 });
    await access(join(cli.sandbox.workspace, "hello.txt"));
    await terminal.sendKeys("1");
    await terminal.waitFor(/working/, { timeoutMs: 30_000 });
    await terminal.sendKeys("Escape");
    const screen = await terminal.waitFor(/Task interrupted/, { timeoutMs: 30_000 });
    for (const line of screen.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
    // issue #12: Esc during a command shows its output once
    expect(screen.split("\n").filter((line) => /^\s*│?\s*output-marker/.test(line))).toHaveLength(1);
    await terminal.sendKeys("C-c");
    await terminal.sendKeys("C-c");
    expect(await terminal.waitForExit({ timeoutMs: 30_000 })).toBe(130);
  });

  it("/restore puts the files back from the TUI, and cairn resume continues the task in the TUI", { timeout: 180_000 }, async () => {
    const server = await cli.startServer({
      turns: [
        { text: "<write_to_file>\n<path>hello.txt</path>\n<content>\nhello\n</content>\n</write_to_file>" },
        { text: "<execute_command>\n<command>sleep 30</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
        { text: "<attempt_completion>\n<result>resumed in the terminal UI</result>\n</attempt_completion>" },
      ],
    });
    const provider = anthropicArgs(server);
    let terminal = await cli.openCairn([...provider, "write hello"]);
    await terminal.waitFor(/Allow this\?/, { timeoutMs: 60_000 });
    await terminal.sendKeys("1");
    await terminal.waitFor(/Run this command\?/, { timeoutMs: 60_000 });
    await terminal.sendKeys("1");
    await terminal.waitFor(/working/, { timeoutMs: 30_000 });
    await terminal.sendKeys("Escape");
    const screen = await terminal.waitFor(/Task interrupted/, { timeoutMs: 30_000 });
    const first = /Checkpoint ([0-9a-f]{12})/.exec(screen)?.[1];
    expect(first).toBeDefined();
    await access(join(cli.sandbox.workspace, "hello.txt"));
    await terminal.sendText(`/restore ${first} files`);
    await terminal.sendKeys("Enter");
    await terminal.waitFor(/Restored checkpoint/, { timeoutMs: 30_000 });
    await expect(access(join(cli.sandbox.workspace, "hello.txt"))).rejects.toThrow();
    await terminal.sendKeys("C-c");
    await terminal.sendKeys("C-c");
    await terminal.waitForExit({ timeoutMs: 30_000 });
    await terminal.kill();

    const [task] = await new TaskStore({ dataDir: cli.sandbox.dataDir }).list();
    terminal = await cli.openCairn(["resume", ...provider, task!.taskId]);
    await terminal.waitFor(/resumed in the terminal UI/, { timeoutMs: 60_000 });
    expect(JSON.stringify(server.requests[2]?.body)).toContain("interrupted");
    await terminal.sendKeys("C-c");
    await terminal.sendKeys("C-c");
    await terminal.waitForExit({ timeoutMs: 30_000 });
  });

  it("cairn demo runs interactively and fixes the sample bug", { timeout: 120_000 }, async () => {
    const terminal = await cli.openCairn(["demo", "--fast"], { env: { TMPDIR: cli.sandbox.root } });
    await terminal.waitFor(/Task completed/, { timeoutMs: 90_000 });
    expect(await terminal.waitForExit({ timeoutMs: 30_000 })).toBe(0);
  });
});
