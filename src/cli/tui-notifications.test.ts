/**
 * The terminal UI calls the user back (tmux, bin/cairn: run `npm run build`
 * first): the terminal reports that it lost the focus, and the approval that
 * waits, then the completion, are said at once through the terminal's own
 * sequence (OSC 9 here, wrapped for tmux; read from the pane's raw output) and
 * the desktop's notify-send (a recording stand-in on PATH).
 */
import { readFileSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { until } from "./test-support/until.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

function read(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

describe.skipIf(!tmuxAvailable())("notifications in the terminal UI (tmux)", () => {
  it("an approval and the completion are said at once once the terminal lost the focus: OSC 9 and notify-send; keys are never taken for text", { timeout: 120_000 }, async () => {
    const bin = join(cli.sandbox.root, "fake-bin");
    const desktop = join(cli.sandbox.root, "notify-send.log");
    const raw = join(cli.sandbox.root, "pane.raw");
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, "notify-send"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${desktop}'\n`);
    await chmod(join(bin, "notify-send"), 0o755);
    // A long wait: only the lost focus can make these come at once.
    await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), JSON.stringify({ notifications: { channel: "auto", afterSeconds: 600 } }));
    const server = await cli.startServer({
      turns: [{ text: "<write_to_file>\n<path>a.txt</path>\n<content>\none\n</content>\n</write_to_file>" }, { text: "<attempt_completion>\n<result>made a</result>\n</attempt_completion>" }],
    });
    const ui = await cli.openCairn([...anthropicArgs(server), "make a"], { env: { TERM_PROGRAM: "WezTerm", DISPLAY: ":99", PATH: `${bin}:${process.env["PATH"] ?? ""}` } });
    const control = await ui.control();
    await control.command(`pipe-pane -o -t ${ui.name} "cat >> '${raw}'"`);

    await ui.waitFor(/Allow this\?/, { timeoutMs: 60_000 });
    expect(read(desktop)).toBe("");
    await ui.sendText("\u001b[O");
    await until(() => read(desktop).includes("an action waits for your approval"), "an action waits for your approval", 10_000);
    expect(read(desktop)).toBe("--app-name=cairn cairn an action waits for your approval\n");
    await until(() => read(raw).includes("]9;cairn: an action waits for your approval\u0007"), "]9;cairn: an action waits for your approval\u0007", 10_000);
    // The focus report is no key: the input line is empty.
    expect(await ui.capture()).not.toMatch(/\[O/);

    await ui.sendKeys("1");
    await ui.waitFor(/made a[\s\S]*Done\?/, { timeoutMs: 60_000 });
    await until(() => read(desktop).includes("the task is done"), "the task is done", 10_000);
    expect(
      read(desktop)
        .split("\n")
        .filter((line) => line !== ""),
    ).toHaveLength(2);
    control.close();
  });
});
