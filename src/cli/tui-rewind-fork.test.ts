/**
 * /rewind (and Esc Esc) and /fork in a real terminal (tmux, bin/cairn: run
 * `npm run build` first): the user's messages listed, the task taken back to
 * before one (files and conversation) with the message put back in the input,
 * and a fork the next message continues.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskStore } from "../store/task-store.js";
import { quitWithCtrlC, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

if (!tmuxAvailable()) console.warn("tmux is not installed: the terminal tests of /rewind and /fork are skipped (install the tmux package)");

const write = (path: string, content: string) => ({ text: `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const complete = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

describe.skipIf(!tmuxAvailable())("/rewind and /fork in the terminal UI (tmux)", () => {
  it("Esc Esc lists your messages; /rewind 2 takes files and conversation back and puts the message in the input; /fork continues in a new task", { timeout: 180_000 }, async () => {
    const server = await cli.startServer({
      turns: [write("a.txt", "one"), complete("made a"), write("b.txt", "two"), complete("made b"), complete("went another way"), complete("the fork went on")],
    });
    const ui = await cli.openCairn([...anthropicArgs(server), "make a"]);
    await ui.waitFor(/Allow this\?/, { timeoutMs: 60_000 });
    await ui.sendKeys("1");
    // Feedback on the completion: the same task goes on.
    await ui.waitFor(/made a[\s\S]*Done\?/, { timeoutMs: 60_000 });
    await ui.sendText("now b");
    await ui.sendKeys("Enter");
    await ui.waitFor(/b\.txt[\s\S]*Allow this\?/, { timeoutMs: 60_000 });
    await ui.sendKeys("1");
    await ui.waitFor(/made b[\s\S]*Done\?/, { timeoutMs: 60_000 });
    await ui.sendKeys("Enter");
    await ui.waitFor(/Give feedback/, { timeoutMs: 30_000 });
    expect(existsSync(join(cli.sandbox.workspace, "b.txt"))).toBe(true);

    await ui.sendKeys("Escape");
    await ui.sendKeys("Escape");
    const listed = await ui.waitFor(/Your messages in this task:[\s\S]*Rewind with/, { timeoutMs: 30_000 });
    expect(listed).toMatch(/1 {2}\d\d:\d\d {2}make a/);
    expect(listed).toMatch(/2 {2}\d\d:\d\d {2}now b/);

    await ui.sendText("/rewind 2");
    await ui.sendKeys("Enter");
    const rewound = await ui.waitFor(/message is back in the input/, { timeoutMs: 30_000 });
    expect(rewound).toMatch(/rewound to before your message 2/);
    expect(rewound).toMatch(/│ › now b\s+│/);
    expect(rewound.replace(/\s+/g, " ")).toMatch(/To undo: \/restore \w{12} files/);
    expect(existsSync(join(cli.sandbox.workspace, "b.txt"))).toBe(false);
    expect(await readFile(join(cli.sandbox.workspace, "a.txt"), "utf8")).toBe("one\n");

    // The message put back is edited and sent: the model never hears of "now b".
    await ui.sendKeys("C-u");
    await ui.sendText("instead, c");
    await ui.sendKeys("Enter");
    await ui.waitFor(/went another way[\s\S]*Done\?/, { timeoutMs: 60_000 });
    const continued = JSON.stringify(server.requests[4]?.body);
    expect(continued).toContain("instead, c");
    expect(continued).toContain("made a");
    expect(continued).not.toContain("now b");
    await ui.sendKeys("Enter");
    await ui.waitFor(/Give feedback/, { timeoutMs: 30_000 });

    await ui.sendText("/fork");
    await ui.sendKeys("Enter");
    const forked = await ui.waitFor(/Your next message continues the fork/, { timeoutMs: 30_000 });
    const [, source, fork] = /Forked task (\S+) into (\S+) /.exec(forked.replace(/\n/g, " ")) ?? [];
    await ui.sendText("and in the fork");
    await ui.sendKeys("Enter");
    await ui.waitFor(/the fork went on/, { timeoutMs: 60_000 });
    const store = new TaskStore({ dataDir: cli.sandbox.dataDir });
    const forkTask = await store.load(fork!);
    expect(forkTask.meta.forkedFrom).toEqual({ taskId: source });
    expect(forkTask.uiMessages.map((message) => message.text)).toContain("and in the fork");
    expect((await store.load(source!)).uiMessages.map((message) => message.text)).not.toContain("and in the fork");
    expect(await quitWithCtrlC(ui)).toBe(0);
  });
});
