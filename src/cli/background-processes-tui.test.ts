/**
 * Background processes in the terminal UI (#31), through the real bin/cairn in
 * tmux: the panel, the ask at the end of the task, `/ps`, `/kill`, and the
 * end of everything when the UI quits.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { quitWithCtrlC, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { isAlive, killLeftovers } from "../tools/test-support/processes.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture({
  prepare: async (sandbox) => {
    await writeFile(
      join(sandbox.workspace, "server.js"),
      'require("node:fs").writeFileSync("server.pid", String(process.pid));\nrequire("node:http").createServer((q, r) => r.end("hi")).listen(0, "127.0.0.1", function () { console.log("listening on " + this.address().port); });\n',
    );
    await writeFile(join(sandbox.workspace, "tick.js"), 'require("node:fs").writeFileSync("tick.pid", String(process.pid));\nlet n = 0;\nsetInterval(() => console.log("tick " + ++n), 200);\n');
  },
});

async function pidOf(file: string): Promise<number> {
  const pid = Number((await readFile(join(cli.sandbox.workspace, file), "utf8").catch(() => "0")).trim());
  if (pid > 0) cli.stopAfterTest(() => killLeftovers([pid]));
  return pid;
}

describe("the process panel, /ps and /kill", () => {
  it.skipIf(!tmuxAvailable())("lists running processes with their age and last line; the user keeps them past the task, ends one with /kill, and quitting ends the rest", { timeout: 120_000 }, async () => {
    const server = await cli.startServer({
      turns: [
        { toolCalls: [{ id: "call_0", name: "execute_command", arguments: { command: "node server.js", requires_approval: false, background: true } }] },
        { toolCalls: [{ id: "call_1", name: "execute_command", arguments: { command: "node tick.js", requires_approval: false, background: true } }] },
        { toolCalls: [{ id: "call_2", name: "attempt_completion", arguments: { result: "both are running" } }] },
      ],
    });
    const ui = await cli.openCairn(["--yes", "--tool-protocol", "native", ...anthropicArgs(server), "--model", "claude-sonnet-5-5", "start the servers"], { columns: 100, rows: 40 });
    // The panel lists both, each with its age and last line.
    await ui.waitFor(/both are running/, { timeoutMs: 60_000 });
    let screen = await ui.waitFor(/⏵ p2 +\d+s +node tick\.js +· tick \d+/, { timeoutMs: 20_000 });
    expect(screen).toMatch(/Background processes \(\/ps, \/kill ID\)/);
    expect(screen).toMatch(/⏵ p1 +\d+s +node server\.js +· listening on \d+/);
    // Each card said, before it ran, that the command goes to the background.
    expect(await ui.captureAll()).toMatch(/Run in the background \$ node server\.js/);
    const serverPid = await pidOf("server.pid");
    const tickPid = await pidOf("tick.pid");

    // The task ends (--yes accepts its result): cairn asks whether to keep them; 1 (Yes) keeps them.
    screen = await ui.waitFor(/Keep them running\? \(No ends them; \/kill ID ends one later\.\)/, { timeoutMs: 20_000 });
    expect(screen).toMatch(/background processes p1 \(node server\.js\), p2 \(node tick\.js\) are still running/);
    await ui.sendText("1");
    await ui.waitFor(/Kept running: p1 \(node server\.js\), p2 \(node tick\.js\)/, { timeoutMs: 20_000 });
    expect(isAlive(serverPid) && isAlive(tickPid)).toBe(true);

    await ui.sendText("/ps");
    await ui.sendKeys("Enter");
    screen = await ui.waitFor(/Background processes \(\/kill ID ends one\):/, { timeoutMs: 20_000 });
    expect(screen).toMatch(/p1 {2}running \d+ s {2}node server\.js {2}· listening on/);
    expect(screen).toMatch(/p2 {2}running \d+ s {2}node tick\.js {2}· tick \d+/);

    await ui.sendText("/kill p2");
    await ui.sendKeys("Enter");
    await ui.waitFor(/Ended p2 \(node tick\.js\), which has run for \d+ s\./, { timeoutMs: 20_000 });
    expect(isAlive(tickPid)).toBe(false);
    expect(isAlive(serverPid)).toBe(true);
    // The panel lists only what still runs.
    screen = await ui.waitFor(/Background process \(\/ps, \/kill ID\)/, { timeoutMs: 10_000 });
    expect(screen).not.toMatch(/⏵ p2 +\d+s/);

    expect(await quitWithCtrlC(ui)).toBe(0);
    expect(isAlive(serverPid)).toBe(false);
  });
});
