/**
 * The CLI fixture plus cairn in a real terminal (tmux): the session is ended
 * after the test, before its scripted server is closed.
 */
import { startTmux } from "../../ui/tui/test-support/tmux.js";
import type { TmuxSession } from "../../ui/tui/test-support/tmux.js";
import { cairnBin } from "./cli-harness.js";
import type { Sandbox } from "./cli-harness.js";
import { useCliFixture } from "./cli-fixture.js";
import type { CliFixture } from "./cli-fixture.js";

export interface TerminalFixture extends CliFixture {
  /** Starts `cairn ...args` in the sandbox's workspace in a tmux session (80x30 unless told), with the sandbox's data and config folders and no colour. */
  openCairn(args: string[], options?: { env?: Record<string, string>; columns?: number; rows?: number }): Promise<TmuxSession>;
}

export function useTerminalFixture(options: { prepare?: (sandbox: Sandbox) => Promise<void> } = {}): TerminalFixture {
  const fixture = useCliFixture(options);
  return Object.assign(fixture, {
    async openCairn(args: string[], openOptions: { env?: Record<string, string>; columns?: number; rows?: number } = {}): Promise<TmuxSession> {
      const session = await startTmux({
        command: [process.execPath, cairnBin, ...args],
        cwd: fixture.sandbox.workspace,
        env: { CAIRN_HOME: fixture.sandbox.dataDir, XDG_CONFIG_HOME: fixture.sandbox.configDir, CLAUDE_CONFIG_DIR: fixture.sandbox.claudeUserDir, NO_COLOR: "1", CAIRN_LSP: "off", ...openOptions.env },
        ...(openOptions.columns === undefined ? {} : { columns: openOptions.columns }),
        ...(openOptions.rows === undefined ? {} : { rows: openOptions.rows }),
      });
      fixture.stopAfterTest(() => session.kill());
      return session;
    },
  });
}
