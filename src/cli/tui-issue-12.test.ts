/**
 * Issue #12 in a real terminal (tmux, 80x30): each test types as a user
 * does and asserts the screen. Runs bin/cairn (dist/): `npm run build` first.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startScriptedServer } from "../llm/scripted/server.js";
import type { ScriptedServer } from "../llm/scripted/server.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import { TaskStore } from "../store/task-store.js";
import { startTmux, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import type { TmuxSession } from "../ui/tui/test-support/tmux.js";
import { cairnBin, makeSandbox } from "./test-support/cli-harness.js";
import type { Sandbox } from "./test-support/cli-harness.js";

let sandbox: Sandbox;
let server: ScriptedServer | undefined;
let terminal: TmuxSession | undefined;

beforeEach(async () => {
  sandbox = await makeSandbox();
});
afterEach(async () => {
  await terminal?.kill();
  terminal = undefined;
  await server?.close();
  server = undefined;
  await sandbox.cleanup();
});

if (!tmuxAvailable()) console.warn("tmux is not installed: the issue #12 terminal tests are skipped (install the tmux package)");

const env = (): Record<string, string> => ({ CAIRN_HOME: sandbox.dataDir, XDG_CONFIG_HOME: sandbox.configDir, NO_COLOR: "1" });

async function startServer(scenario: Scenario): Promise<ScriptedServer> {
  server = await startScriptedServer({ scenario });
  return server;
}

function providerArgs(target: ScriptedServer): string[] {
  return ["--provider", "anthropic", "--base-url", target.url, "--api-key", "test-key"];
}

async function open(args: string[], extraEnv: Record<string, string> = {}): Promise<TmuxSession> {
  terminal = await startTmux({ command: [process.execPath, cairnBin, ...args], cwd: sandbox.workspace, env: { ...env(), ...extraEnv } });
  return terminal;
}

async function quit(session: TmuxSession): Promise<number> {
  await session.sendKeys("C-c");
  await session.waitFor(/Ctrl\+C again/, { timeoutMs: 10_000 });
  await session.sendKeys("C-c");
  return session.waitForExit({ timeoutMs: 30_000 });
}

describe.skipIf(!tmuxAvailable())("issue #12 defects in the terminal UI (tmux)", () => {
  it("feedback typed after Esc is shown; quitting at the completion prompt is exit 0, not interrupted; resume shows the task and its transcript", { timeout: 180_000 }, async () => {
    const target = await startServer({
      turns: [
        { text: "Starting a long command.\n<execute_command>\n<command>sleep 30</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
        { text: "<attempt_completion>\n<result>all done now</result>\n</attempt_completion>" },
        { text: "<attempt_completion>\n<result>reopened and done</result>\n</attempt_completion>" },
      ],
    });
    const ui = await open([...providerArgs(target), "--yes", "count the files"]);
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
    expect(await quit(ui)).toBe(0);
    await ui.kill();

    const [task] = await new TaskStore({ dataDir: sandbox.dataDir }).list();
    const resumed = await open(["resume", ...providerArgs(target), task!.taskId]);
    const resumedScreen = await resumed.waitFor(/reopened and done/, { timeoutMs: 60_000 });
    // The task header and the earlier transcript come first.
    expect(resumedScreen).toMatch(/› count the files/);
    expect(resumedScreen).toMatch(/all done now/);
    await resumed.waitFor(/Accept|accept/, { timeoutMs: 30_000 });
    const status = await quit(resumed);
    expect(status).toBe(0);
    expect(await resumed.capture()).not.toMatch(/task interrupted; resume it with/);
  });
});
