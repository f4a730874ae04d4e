/** Issue #17 in a real terminal (tmux): a subagent's approval prompt names it; its card shows while it runs. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

if (!tmuxAvailable()) console.warn("tmux is not installed: the subagent TUI test is skipped (scripts/system-packages.sh installs it)");

describe.skipIf(!tmuxAvailable())("subagents in a real terminal (tmux, 80x30)", () => {
  it("the approval prompt of a subagent names it; its merge is asked; the card shows while it runs", { timeout: 120_000 }, async () => {
    const items = [{ prompt: "EPSILON: write a file" }];
    const server = await cli.startServer({
      turns: [{ text: `Delegating.\n<use_subagents>\n<subagents>${JSON.stringify(items)}</subagents>\n</use_subagents>` }, { text: "<attempt_completion>\n<result>the child wrote it</result>\n</attempt_completion>" }],
      conversations: [
        {
          match: "EPSILON:",
          turns: [
            { text: "<execute_command>\n<command>echo from-child > child.txt</command>\n<requires_approval>true</requires_approval>\n</execute_command>" },
            { text: "<attempt_completion>\n<result>wrote child.txt</result>\n</attempt_completion>" },
          ],
        },
      ],
    });
    const terminal = await cli.openCairn([...anthropicArgs(server), "delegate"]);
    const asked = await terminal.waitFor(/\[subagent general-1\] Run this command\?/, { timeoutMs: 60_000 });
    expect(asked).toMatch(/◆ general-1 · /);
    await terminal.sendKeys("1");
    await terminal.waitFor(/Allow this\?/, { timeoutMs: 60_000 });
    expect(await terminal.capture()).toMatch(/\+from-child/);
    await terminal.sendKeys("1");
    await terminal.waitFor(/Done\?/, { timeoutMs: 60_000 });
    expect(await readFile(join(cli.sandbox.workspace, "child.txt"), "utf8")).toBe("from-child\n");
    await terminal.sendKeys("C-c");
    await terminal.sendKeys("C-c");
  });
});
