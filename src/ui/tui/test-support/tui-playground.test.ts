import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startTmux, tmuxAvailable } from "./tmux.js";
import type { TmuxSession } from "./tmux.js";

const projectRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const playground = fileURLToPath(new URL("./tui-playground.ts", import.meta.url));

let session: TmuxSession | undefined;
afterEach(async () => {
  await session?.kill();
  session = undefined;
});

describe.skipIf(!tmuxAvailable())("the terminal UI in a real terminal (tmux, 80x30)", () => {
  it("T5: streams an answer, approves an edit, aborts a running command, and quits with Ctrl+C twice", async () => {
    session = await startTmux({ command: [process.execPath, "--import", "tsx", playground], cwd: projectRoot });
    const terminal = session;
    await terminal.waitFor(/What should cairn do\?/, { timeoutMs: 60_000 });
    expect(await terminal.capture()).toMatch(/ACT · scripted-model/);
    await terminal.sendKeys("Tab");
    await terminal.waitFor(/PLAN · scripted-model/);
    await terminal.sendText("fix the add bug");
    await terminal.sendKeys("Enter");
    await terminal.waitFor(/› fix the add bug/);
    const edit = await terminal.waitFor(/Allow this\?/);
    expect(edit).toContain("The bug");
    expect(edit).toContain("add subtracts instead of adding:");
    expect(edit).toContain("• the test expects add(2, 3) to be 5");
    expect(edit).toContain("│ export const add = (a: number, b: number) => a + b;");
    expect(edit).toContain("● Edit src/math.ts");
    expect(edit).toContain("+export const add = (a: number, b: number) => a + b;");
    // the live area was redrawn in place: no stale copy of the input box is left behind
    expect(edit.split("╭").length - 1).toBe(1);
    await terminal.sendKeys("1");
    await terminal.waitFor(/✓ approved/);
    await terminal.waitFor(/tick 3/);
    await terminal.sendKeys("Escape");
    const aborted = await terminal.waitFor(/The step was aborted/);
    expect(aborted).toContain("edit answer: yes");
    expect(aborted).toMatch(/\n\s+aborted/);
    for (const row of aborted.split("\n")) expect(row.length).toBeLessThanOrEqual(80);
    await terminal.sendKeys("C-c");
    await terminal.waitFor(/Press Ctrl\+C again to quit/);
    await terminal.sendKeys("C-c");
    await terminal.waitFor(/cairn playground exited/);
    expect(await terminal.waitForExit()).toBe(0);
  }, 120_000);
});
