/**
 * /undo, /history and /resume in a real terminal (tmux, 80x30, bin/cairn: run
 * `npm run build` first).
 */
import { access, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TaskStore } from "../store/task-store.js";
import { quitWithCtrlC, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

if (!tmuxAvailable()) console.warn("tmux is not installed: the terminal tests of /undo and /resume are skipped (install the tmux package)");

const write = (path: string, content: string) => ({ text: `<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>` });
const complete = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

describe.skipIf(!tmuxAvailable())("/undo, /history and /resume in the terminal UI (tmux)", () => {
  it("/undo takes back the last step's changes and names the files; again, the step before; the continued task's model is told which files changed", { timeout: 180_000 }, async () => {
    await writeFile(join(cli.sandbox.workspace, "notes.txt"), "original\n");
    const server = await cli.startServer({ turns: [write("notes.txt", "changed"), write("added.txt", "new file"), complete("edited both"), complete("continued from the undone files")] });
    const ui = await cli.openCairn([...anthropicArgs(server), "edit the notes"]);
    await ui.waitFor(/Allow this\?/, { timeoutMs: 60_000 });
    await ui.sendKeys("1");
    await ui.waitFor(/added\.txt[\s\S]*Allow this\?/, { timeoutMs: 60_000 });
    await ui.sendKeys("1");
    await ui.waitFor(/edited both[\s\S]*Done\?/, { timeoutMs: 60_000 });
    await ui.sendKeys("Enter");
    await ui.waitFor(/Give feedback/, { timeoutMs: 30_000 });
    expect(await readFile(join(cli.sandbox.workspace, "notes.txt"), "utf8")).toBe("changed\n");

    await ui.sendText("/undo");
    await ui.sendKeys("Enter");
    const first = (await ui.waitFor(/Undid[\s\S]*Give feedback/, { timeoutMs: 30_000 })).replace(/\n/g, " ");
    expect(first).toMatch(/removed added\.txt/);
    expect(first).not.toMatch(/0 written back/);
    await expect(access(join(cli.sandbox.workspace, "added.txt"))).rejects.toThrow();
    expect(await readFile(join(cli.sandbox.workspace, "notes.txt"), "utf8")).toBe("changed\n");

    await ui.sendText("/undo");
    await ui.sendKeys("Enter");
    const second = (await ui.waitFor(/wrote back notes\.txt/, { timeoutMs: 30_000 })).replace(/\n/g, " ");
    expect(second).toMatch(/Undid/);
    expect(await readFile(join(cli.sandbox.workspace, "notes.txt"), "utf8")).toBe("original\n");

    // Nothing cairn changed is left to take back.
    await ui.sendText("/undo");
    await ui.sendKeys("Enter");
    await ui.waitFor(/Nothing to undo/, { timeoutMs: 30_000 });
    expect(await readFile(join(cli.sandbox.workspace, "notes.txt"), "utf8")).toBe("original\n");

    // The task continues: the model is told which files the undos changed under it.
    await ui.sendText("go on from here");
    await ui.sendKeys("Enter");
    await ui.waitFor(/continued from the undone files[\s\S]*Done\?/, { timeoutMs: 60_000 });
    const told = JSON.stringify(server.requests[3]?.body);
    expect(told).toContain("go on from here");
    expect(told).toMatch(
      /\[WORKSPACE CHANGED BY THE USER\] The user undid the last step \(the files as at checkpoint \w+\): removed added\.txt\. Then: The user undid the last step \(the files as at checkpoint \w+\): wrote back notes\.txt\./,
    );
    await ui.sendKeys("Enter");
    await ui.waitFor(/Give feedback/, { timeoutMs: 30_000 });
    expect(await quitWithCtrlC(ui)).toBe(0);
  });

  it("/history lists this folder's tasks newest first; /resume without an id opens the latest and shows its transcript", { timeout: 180_000 }, async () => {
    const server = await cli.startServer({ turns: [complete("alpha done"), complete("beta done"), complete("beta continued")] });
    expect((await cli.run(["run", ...anthropicArgs(server), "--yes", "first task alpha"])).status).toBe(0);
    expect((await cli.run(["run", ...anthropicArgs(server), "--yes", "second task beta"])).status).toBe(0);
    const tasks = await new TaskStore({ dataDir: cli.sandbox.dataDir }).list();
    const beta = tasks.find((task) => task.title.includes("beta"))!;

    const ui = await cli.openCairn(anthropicArgs(server));
    await ui.waitFor(/What should cairn do/, { timeoutMs: 30_000 });
    await ui.sendText("/history");
    await ui.sendKeys("Enter");
    const listed = await ui.waitFor(/newest first[\s\S]*alpha/, { timeoutMs: 30_000 });
    expect(listed.indexOf("second task beta")).toBeGreaterThan(-1);
    expect(listed.indexOf("second task beta")).toBeLessThan(listed.indexOf("first task alpha"));

    await ui.sendText("/resume");
    await ui.sendKeys("Enter");
    // The transcript comes at once, before any message is sent.
    const resumed = await ui.waitFor(new RegExp(`Task ${beta.taskId} is open`), { timeoutMs: 30_000 });
    expect(resumed).toMatch(/› second task beta/);
    expect(resumed).toMatch(/beta done/);
    expect(resumed).not.toMatch(/alpha done/);
    expect(server.requests).toHaveLength(2);

    await ui.sendText("go on");
    await ui.sendKeys("Enter");
    await ui.waitFor(/beta continued/, { timeoutMs: 60_000 });
    const screen = await ui.captureAll();
    // Shown once: not again when the task continues.
    expect(screen.match(/› second task beta/g) ?? []).toHaveLength(1);
    expect(JSON.stringify(server.requests[2]?.body)).toContain("second task beta");
    expect(await quitWithCtrlC(ui)).toBe(0);
  });
});
