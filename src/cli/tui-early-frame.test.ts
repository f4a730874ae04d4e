/**
 * The input box the launcher draws before the CLI bundle loads (src/launch/early-frame.ts), in
 * a real terminal (tmux, bin/cairn: run `npm run build` first). Most tests start cairn without
 * its code cache (NODE_DISABLE_COMPILE_CACHE, as a first run): the bundle then compiles for a
 * few hundred milliseconds after the box is drawn, which is the window these tests type into.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startTmux, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import type { TmuxSession } from "../ui/tui/test-support/tmux.js";
import { cairnBin } from "./test-support/cli-harness.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();
const statusLine = /Tab mode · Esc stop/;
const firstRun = { NODE_DISABLE_COMPILE_CACHE: "1" };

/** cairn in tmux through a shell that records the terminal's settings (`stty -a`) once cairn has ended. */
async function openRecordingTerminal(args: string[], env: Record<string, string>): Promise<{ ui: TmuxSession; terminalAfter: () => Promise<string> }> {
  const record = join(cli.sandbox.workspace, "..", "stty-after.txt");
  const quoted = [process.execPath, cairnBin, ...args].map((word) => `'${word.replace(/'/g, "'\\''")}'`).join(" ");
  const ui = await startTmux({
    command: ["sh", "-c", `${quoted}; status=$?; stty -a > '${record}'; exit $status`],
    cwd: cli.sandbox.workspace,
    env: { CAIRN_HOME: cli.sandbox.dataDir, XDG_CONFIG_HOME: cli.sandbox.configDir, CLAUDE_CONFIG_DIR: cli.sandbox.claudeUserDir, NO_COLOR: "1", CAIRN_LSP: "off", ...env },
  });
  cli.stopAfterTest(() => ui.kill());
  return { ui, terminalAfter: () => readFile(record, "utf8") };
}

/** The terminal as cairn found it: the tty echoes and reads lines. */
function expectSane(stty: string): void {
  expect(stty).toMatch(/(^|\s)echo(\s|$)/m);
  expect(stty).toMatch(/(^|\s)icanon(\s|$)/m);
}

describe.skipIf(!tmuxAvailable())("the input box drawn before the bundle loads (tmux)", () => {
  it("appears before the UI is ready, keeps what is typed meanwhile, and becomes the live UI with one box", { timeout: 60_000 }, async () => {
    const ui = await cli.openCairn(["--provider", "mock"], { env: firstRun });
    const early = await ui.waitFor(/What should cairn do\?/, { timeoutMs: 20_000, intervalMs: 2 });
    // The UI draws its box and status line in one frame: the box alone is the launcher's.
    expect(early).not.toMatch(statusLine);
    await ui.sendText("fix the");
    await ui.sendText(" tests");
    const live = await ui.waitFor(/› fix the tests[\s\S]*Tab mode/, { timeoutMs: 20_000 });
    expect((await ui.captureAll()).match(/╭/g)).toHaveLength(1);
    expect(live).not.toMatch(/What should cairn do/);
    // And the UI goes on reading the keyboard.
    await ui.sendText(" now");
    await ui.waitFor(/› fix the tests now/, { timeoutMs: 10_000 });
    // The sandbox's notice (the tests' config turns it off), printed while the box was up, stands above it once.
    expect((await ui.captureAll()).match(/cairn: .*sandbox/g)).toHaveLength(1);
  });

  it("a resize before the UI is ready draws the box at the new width, and the UI takes it over with one box", { timeout: 60_000 }, async () => {
    const ui = await cli.openCairn(["--provider", "mock"], { env: firstRun, columns: 80 });
    expect(await ui.waitFor(/What should cairn do\?/, { timeoutMs: 20_000, intervalMs: 2 })).not.toMatch(statusLine);
    await ui.resize(60, 30);
    const live = await ui.waitFor(statusLine, { timeoutMs: 20_000 });
    expect(live).toContain(`╭${"─".repeat(58)}╮`);
    expect((await ui.captureAll()).match(/╭/g)).toHaveLength(1);
  });

  it("with nothing typed before the UI is ready, the UI then reads the keyboard", { timeout: 60_000 }, async () => {
    const ui = await cli.openCairn(["--provider", "mock"]);
    await ui.waitFor(/What should cairn do\?[\s\S]*Tab mode/, { timeoutMs: 20_000 });
    await ui.sendText("hello");
    await ui.waitFor(/› hello/, { timeoutMs: 10_000 });
  });

  it("Ctrl+C before the UI is ready ends cairn at once, the box erased and the terminal as it was", { timeout: 60_000 }, async () => {
    const { ui, terminalAfter } = await openRecordingTerminal(["--provider", "mock"], firstRun);
    expect(await ui.waitFor(/What should cairn do\?/, { timeoutMs: 20_000, intervalMs: 2 })).not.toMatch(statusLine);
    await ui.sendKeys("C-c");
    expect(await ui.waitForExit({ timeoutMs: 10_000 })).toBe(130);
    expect(await ui.captureAll()).not.toMatch(/What should cairn do|╭/);
    expectSane(await terminalAfter());
  });

  it("a start-up error is printed as before, with no box left over and the terminal as it was", { timeout: 60_000 }, async () => {
    await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), '{ "provider": ');
    const { ui, terminalAfter } = await openRecordingTerminal(["--provider", "mock"], {});
    expect(await ui.waitForExit({ timeoutMs: 20_000 })).toBe(2);
    const screen = await ui.captureAll();
    expect(screen).toMatch(/^cairn: .*config\.json/m);
    expect(screen).not.toMatch(/What should cairn do|╭/);
    expectSane(await terminalAfter());
  });

  it("print mode and CAIRN_NO_EARLY_PAINT=1 draw no box", { timeout: 60_000 }, async () => {
    const printed = await cli.openCairn(["-p", "--provider", "mock", "say hi"]);
    await printed.waitForExit({ timeoutMs: 30_000 });
    expect(await printed.captureAll()).not.toMatch(/What should cairn do|╭/);
    const switchedOff = await cli.openCairn(["--provider", "mock"], { env: { ...firstRun, CAIRN_NO_EARLY_PAINT: "1" } });
    // Without the early box, the first frame on the screen is the UI's, status line and all.
    expect(await switchedOff.waitFor(/What should cairn do\?/, { timeoutMs: 20_000, intervalMs: 2 })).toMatch(statusLine);
  });
});
