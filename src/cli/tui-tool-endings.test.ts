/**
 * How a tool call ended, in the terminal UI (tmux, through the real CLI:
 * bin/cairn → dist/, `npm run build` first): a timed-out command says so, and
 * a command that exits non-zero without output shows its exit status.
 */
import { describe, expect, it } from "vitest";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

const command = (text: string, timeout?: number): { text: string } => ({
  text: `<execute_command>\n<command>${text}</command>\n<requires_approval>false</requires_approval>${timeout === undefined ? "" : `\n<timeout>${timeout}</timeout>`}\n</execute_command>`,
});

describe.skipIf(!tmuxAvailable())("tool endings in the terminal UI", () => {
  it("a timed-out command shows why; a silent non-zero exit shows its exit code", { timeout: 120_000 }, async () => {
    const server = await cli.startServer({
      turns: [command("sleep 5", 1), command("exit 3"), { text: "<attempt_completion>\n<result>ran both</result>\n</attempt_completion>" }],
    });
    const terminal = await cli.openCairn(["--yes", ...anthropicArgs(server), "run two commands"], { columns: 120 });
    const screen = await terminal.waitFor(/ran both/, { timeoutMs: 90_000 });
    expect(screen).toMatch(/✗ timed out after 1 s and was stopped/);
    expect(screen).toMatch(/✗ exited with code 3 after \d+(\.\d)? s/);
    await terminal.sendKeys("C-c");
    await terminal.sendKeys("C-c");
    await terminal.waitForExit({ timeoutMs: 30_000 });
  });
});
