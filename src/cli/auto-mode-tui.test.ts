/**
 * Auto mode in a real terminal (tmux, bin/cairn: run `npm run build` first): the
 * status line says it, Tab cycles it with plan mode, and a judged edit's card
 * says what the judge decided and why.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { quitWithCtrlC, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

describe.skipIf(!tmuxAvailable())("auto mode in the terminal UI (tmux)", () => {
  it("ACT · AUTO on the status line, Tab cycles auto → ask → plan → auto, and the judged edit's card gives the judge's reason", { timeout: 180_000 }, async () => {
    const server = await cli.startServer({
      turns: [{ text: "<write_to_file>\n<path>hello.txt</path>\n<content>\nhello\n</content>\n</write_to_file>" }, { text: "<attempt_completion>\n<result>wrote it</result>\n</attempt_completion>" }],
      routes: [{ bodyIncludes: "cairn's auto-mode judge", turns: [{ text: '{"decision": "allow", "reason": "the file the user asked for"}' }] }],
    });
    const ui = await cli.openCairn([...anthropicArgs(server), "--permission-mode", "auto"]);
    await ui.waitFor(/What should cairn do\?[\s\S]*ACT · AUTO · /, { timeoutMs: 60_000 });
    await ui.sendKeys("Tab");
    await ui.waitFor(/ACT · claude/, { timeoutMs: 10_000 });
    await ui.sendKeys("Tab");
    await ui.waitFor(/PLAN · claude/, { timeoutMs: 10_000 });
    await ui.sendKeys("Tab");
    await ui.waitFor(/ACT · AUTO · claude/, { timeoutMs: 10_000 });
    await ui.sendText("write hello");
    await ui.sendKeys("Enter");
    const screen = await ui.waitFor(/auto mode allowed it: the file the user asked for[\s\S]*wrote it/, { timeoutMs: 60_000 });
    expect(screen).not.toMatch(/Allow this\?/);
    expect(await readFile(join(cli.sandbox.workspace, "hello.txt"), "utf8")).toBe("hello\n");
    expect(await quitWithCtrlC(ui)).toBe(0);
  });
});
