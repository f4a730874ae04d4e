/**
 * Issue #12 in a real terminal (tmux, 80x30): each test types as a user
 * does and asserts the screen. Runs bin/cairn (dist/): `npm run build` first.
 */
import { access } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskStore } from "../store/task-store.js";
import { quitWithCtrlC, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

if (!tmuxAvailable()) console.warn("tmux is not installed: the terminal UI tests in tmux are skipped (install the tmux package)");

describe.skipIf(!tmuxAvailable())("interrupting, quitting and resuming in the terminal UI (tmux)", () => {
  it("feedback typed after Esc is shown; quitting at the completion prompt is exit 0, not interrupted; resume shows the task and its transcript", { timeout: 180_000 }, async () => {
    const target = await cli.startServer({
      turns: [
        { text: "Starting a long command.\n<execute_command>\n<command>sleep 30</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
        { text: "<attempt_completion>\n<result>all done now</result>\n</attempt_completion>" },
        { text: "<attempt_completion>\n<result>reopened and done</result>\n</attempt_completion>" },
      ],
    });
    const ui = await cli.openCairn([...anthropicArgs(target), "--yes", "count the files"]);
    await ui.waitFor(/working/, { timeoutMs: 60_000 });
    await ui.waitFor(/sleep 30/, { timeoutMs: 60_000 });
    await ui.sendKeys("Escape");
    await ui.waitFor(/Give feedback/, { timeoutMs: 30_000 });
    await ui.sendText("please go on quickly");
    await ui.sendKeys("Enter");
    const screen = await ui.waitFor(/all done now/, { timeoutMs: 60_000 });
    expect(screen).toMatch(/› please go on quickly/);
    expect(JSON.stringify(target.requests[1]?.body)).toContain("please go on quickly");
    // --yes completes without the prompt; the UI stays until the user quits.
    expect(await quitWithCtrlC(ui)).toBe(0);
    await ui.kill();

    const [task] = await new TaskStore({ dataDir: cli.sandbox.dataDir }).list();
    const resumed = await cli.openCairn(["resume", ...anthropicArgs(target), task!.taskId]);
    const resumedScreen = await resumed.waitFor(/reopened and done/, { timeoutMs: 60_000 });
    // The task header and the earlier transcript come first.
    expect(resumedScreen).toMatch(/› count the files/);
    expect(resumedScreen).toMatch(/all done now/);
    await resumed.waitFor(/Accept|accept/, { timeoutMs: 30_000 });
    const status = await quitWithCtrlC(resumed);
    expect(status).toBe(0);
    expect(await resumed.capture()).not.toMatch(/task interrupted; resume it with/);
  });
});

describe.skipIf(!tmuxAvailable())("a missing API key stops the terminal UI before it opens (tmux)", () => {
  it("says what to set before the UI opens, and repeats the task so it is not lost", { timeout: 60_000 }, async () => {
    const ui = await cli.openCairn(["--provider", "anthropic", "fix the failing test"], { env: { ANTHROPIC_API_KEY: "", CAIRN_API_KEY: "" } });
    // Long lines wrap at 80 columns: read the screen as one line.
    await ui.waitFor(/Your task was not started/, { timeoutMs: 30_000 });
    expect(await ui.waitForExit({ timeoutMs: 30_000 })).toBe(2);
    // tmux may scroll the first row off when the pane dies: read the scrollback too.
    const screen = (await ui.captureAll()).replace(/\n/g, "");
    expect(screen).toMatch(/no API key for anthropic/);
    expect(screen).toMatch(/ANTHROPIC_API_KEY/);
    expect(screen).toMatch(/cairn "fix the failing test"/);
  });
});

describe.skipIf(!tmuxAvailable())("slash commands in the terminal UI (tmux)", () => {
  it("/help via the menu, /cost, /mode, /model, an unknown command, a failed /restore that keeps the task, and /restore of an earlier task's checkpoint", { timeout: 180_000 }, async () => {
    const target = await cli.startServer({
      turns: [
        { text: "<write_to_file>\n<path>hello.txt</path>\n<content>\nhello\n</content>\n</write_to_file>" },
        { text: "<attempt_completion>\n<result>first task done</result>\n</attempt_completion>" },
        { text: "<attempt_completion>\n<result>second task done</result>\n</attempt_completion>" },
      ],
    });
    const ui = await cli.openCairn([...anthropicArgs(target), "--yes", "write hello"]);
    const done = await ui.waitFor(/first task done[\s\S]*Give feedback/, { timeoutMs: 60_000 });
    const checkpoint = /Checkpoint ([0-9a-f]{12})/.exec(done)?.[1];
    expect(checkpoint).toBeDefined();
    await access(join(cli.sandbox.workspace, "hello.txt"));

    await ui.sendText("/he");
    await ui.waitFor(/List the commands/, { timeoutMs: 10_000 });
    await ui.sendKeys("Tab");
    await ui.waitFor(/› \/help/, { timeoutMs: 10_000 });
    await ui.sendKeys("Enter");
    // The whole list is printed: its start may have scrolled up past the screen.
    await ui.waitFor(/Ctrl\+C twice {2}quit/, { timeoutMs: 10_000 });
    expect(await ui.captureAll()).toMatch(/handled by cairn, never sent to the model/);

    await ui.sendText("/cost");
    await ui.sendKeys("Enter");
    await ui.waitFor(/This task: \d+ tokens in/, { timeoutMs: 10_000 });
    await ui.sendText("/mode plan");
    await ui.sendKeys("Enter");
    await ui.waitFor(/^PLAN · /m, { timeoutMs: 10_000 });
    await ui.sendText("/mode act");
    await ui.sendKeys("Enter");
    await ui.waitFor(/^ACT · /m, { timeoutMs: 10_000 });
    await ui.sendText("/model claude-opus-4-5");
    await ui.sendKeys("Enter");
    await ui.waitFor(/Model for the next request: claude-opus-4-5/, { timeoutMs: 10_000 });
    await ui.waitFor(/^ACT · claude-opus-4-5/m, { timeoutMs: 10_000 });

    await ui.sendText("/nosuch");
    await ui.sendKeys("Enter");
    await ui.waitFor(/Unknown command \/nosuch/, { timeoutMs: 10_000 });
    expect(target.requests).toHaveLength(2);

    await ui.sendText("/restore 0000000 files");
    await ui.sendKeys("Enter");
    await ui.waitFor(/has no checkpoint/, { timeoutMs: 30_000 });
    // The task is still there: a second restore works.
    await ui.sendText(`/restore ${checkpoint} files`);
    await ui.sendKeys("Enter");
    const restored = await ui.waitFor(/Restored checkpoint[\s\S]*undo with \/restore [0-9a-f]{12}/, { timeoutMs: 30_000 });
    const undo = /undo with \/restore ([0-9a-f]{12})/.exec(restored)?.[1];
    await expect(access(join(cli.sandbox.workspace, "hello.txt"))).rejects.toThrow();

    // A new task, then a checkpoint of the first one.
    await ui.sendText("/clear");
    await ui.sendKeys("Enter");
    await ui.waitFor(/New task/, { timeoutMs: 10_000 });
    await ui.sendText("second task");
    await ui.sendKeys("Enter");
    await ui.waitFor(/second task done[\s\S]*Give feedback/, { timeoutMs: 60_000 });
    const tasks = await new TaskStore({ dataDir: cli.sandbox.dataDir }).list();
    expect(tasks).toHaveLength(2);
    // The undo point belongs to the first task: /restore finds it from the second one.
    await ui.sendText(`/restore ${undo} files`);
    await ui.sendKeys("Enter");
    await ui.waitFor(/Restored checkpoint [0-9a-f]{12} of task/, { timeoutMs: 30_000 });
    await access(join(cli.sandbox.workspace, "hello.txt"));
    expect(await quitWithCtrlC(ui)).toBe(0);
  });
});

describe.skipIf(!tmuxAvailable())("typing and editing input in the terminal UI (tmux)", () => {
  it("typing while cairn works queues the message for the next tool boundary; the input line edits, continues lines, pastes as one message and remembers", { timeout: 180_000 }, async () => {
    const target = await cli.startServer({
      turns: [
        { text: "<execute_command>\n<command>sleep 4</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
        { text: "<attempt_completion>\n<result>done one</result>\n</attempt_completion>" },
        { text: "<attempt_completion>\n<result>done two</result>\n</attempt_completion>" },
        { text: "<attempt_completion>\n<result>done three</result>\n</attempt_completion>" },
      ],
    });
    const ui = await cli.openCairn([...anthropicArgs(target), "--yes", "first task"]);
    await ui.waitFor(/sleep 4/, { timeoutMs: 60_000 });
    await ui.sendText("also check the README");
    await ui.sendKeys("Enter");
    await ui.waitFor(/queued: also check the README/, { timeoutMs: 10_000 });
    await ui.waitFor(/done one[\s\S]*Give feedback/, { timeoutMs: 60_000 });
    // Delivered at the tool boundary: the very next request carries it.
    expect(JSON.stringify(target.requests[1]?.body)).toContain("also check the README");
    expect(await ui.capture()).toMatch(/› also check the README/);

    // Editing: Home, End, a trailing backslash continues on a new line.
    await ui.sendText("abc");
    await ui.sendKeys("Home");
    await ui.sendText("X");
    await ui.sendKeys("End");
    await ui.sendText("Y\\");
    await ui.sendKeys("Enter");
    await ui.sendText("line two");
    await ui.waitFor(/XabcY\s*│\s*\n│\s+line two/, { timeoutMs: 10_000 });
    await ui.sendKeys("Enter");
    await ui.waitFor(/done two[\s\S]*Give feedback/, { timeoutMs: 60_000 });
    expect(JSON.stringify(target.requests[2]?.body)).toContain("XabcY\\nline two");

    // A pasted block with line breaks is one message.
    await ui.paste("para one\npara two");
    await ui.waitFor(/para one\s*│\s*\n│\s+para two/, { timeoutMs: 10_000 });
    await ui.sendKeys("Enter");
    await ui.waitFor(/done three[\s\S]*Give feedback/, { timeoutMs: 60_000 });
    expect(JSON.stringify(target.requests[3]?.body)).toContain("para one\\npara two");
    expect(await quitWithCtrlC(ui)).toBe(0);
    await ui.kill();

    // Up brings back what was typed, in a new session of the same folder.
    const again = await cli.openCairn([...anthropicArgs(target)]);
    await again.waitFor(/What should cairn do/, { timeoutMs: 30_000 });
    await again.sendKeys("Up");
    await again.waitFor(/› para one/, { timeoutMs: 10_000 });
    // In a multi-line entry Up first moves to its first line, then to the earlier entry.
    await again.sendKeys("Up");
    await again.sendKeys("Up");
    await again.waitFor(/› XabcY/, { timeoutMs: 10_000 });
    await again.sendKeys("Down");
    await again.waitFor(/› para one/, { timeoutMs: 10_000 });
    await again.sendKeys("C-c");
    await again.sendKeys("C-c");
  });
});

describe.skipIf(!tmuxAvailable())("@path mentions complete and attach in the terminal UI (tmux)", () => {
  it("@path completes with Tab, the file reaches the model, the screen shows what was attached", { timeout: 120_000 }, async () => {
    const { mkdir, writeFile } = await import("node:fs/promises");
    await mkdir(join(cli.sandbox.workspace, "src"), { recursive: true });
    await writeFile(join(cli.sandbox.workspace, "src", "main.ts"), "export const answer = 42;\n");
    const target = await cli.startServer({ turns: [{ text: "<attempt_completion>\n<result>explained</result>\n</attempt_completion>" }] });
    const ui = await cli.openCairn([...anthropicArgs(target), "--yes"]);
    await ui.waitFor(/What should cairn do/, { timeoutMs: 30_000 });
    await ui.sendText("explain @sr");
    await ui.sendKeys("Tab");
    await ui.waitFor(/explain @src\//, { timeoutMs: 10_000 });
    await ui.sendText("ma");
    await ui.sendKeys("Tab");
    await ui.waitFor(/explain @src\/main\.ts/, { timeoutMs: 10_000 });
    await ui.sendKeys("Enter");
    const screen = await ui.waitFor(/explained/, { timeoutMs: 60_000 });
    expect(screen).toMatch(/\+ attached: src\/main\.ts/);
    expect(screen).not.toMatch(/answer = 42/);
    expect(JSON.stringify(target.requests[0]?.body)).toContain("export const answer = 42;");
    await quitWithCtrlC(ui);
  });
});

describe.skipIf(!tmuxAvailable())("the terminal UI shows a silent command's time and a closing summary (tmux)", () => {
  it("a silent command shows its elapsed time; the end of the task shows a summary with tokens and cost", { timeout: 120_000 }, async () => {
    const target = await cli.startServer({
      turns: [
        { text: "<execute_command>\n<command>sleep 4</command>\n<requires_approval>false</requires_approval>\n</execute_command>", usage: { inputTokens: 1200, outputTokens: 30 } },
        { text: "<attempt_completion>\n<result>slept</result>\n</attempt_completion>", usage: { inputTokens: 1300, outputTokens: 20 } },
      ],
    });
    const ui = await cli.openCairn([...anthropicArgs(target), "--yes", "sleep a bit"]);
    await ui.waitFor(/Running sleep 4 · [2-4]s/, { timeoutMs: 60_000 });
    const screen = await ui.waitFor(/Done in \d+s · 2500 tokens in, 50 out · \$\d/, { timeoutMs: 60_000 });
    expect(screen).toMatch(/↑2\.5k ↓50/);
    await quitWithCtrlC(ui);
  });
});
