/**
 * Follow-up messages are part of the transcript, through the real CLI
 * (bin/cairn → dist/: `npm run build` first) against the scripted LLM
 * server: what the model got from the user is in the task's log, so `cairn
 * show`, a later resume and the terminal UI show it.
 */
import { describe, expect, it } from "vitest";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

const done = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

describe("follow-up messages in the transcript", () => {
  it("cairn resume ID MESSAGE: the model gets the message, and cairn show (text and --json) shows it where it came", { timeout: 90_000 }, async () => {
    const server = await cli.startServer({ turns: [done("first answer"), done("second answer")] });
    const first = await cli.run(["run", "--json", "--yes", ...anthropicArgs(server), "the first request"]);
    expect(first.status, first.stderr).toBe(0);
    const taskId = String(first.events[0]?.["taskId"]);

    const resumed = await cli.run(["resume", "--yes", ...anthropicArgs(server), taskId, "please continue"]);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(JSON.stringify(server.requests[1]?.body)).toContain("please continue");
    expect(resumed.stderr).toMatch(/^> please continue$/m);

    const shown = await cli.run(["show", taskId]);
    expect(shown.stdout).toMatch(/user_feedback\s+please continue/);
    expect(shown.stdout.indexOf("first answer")).toBeLessThan(shown.stdout.indexOf("please continue"));
    expect(shown.stdout.indexOf("please continue")).toBeLessThan(shown.stdout.indexOf("second answer"));
    const json = JSON.parse((await cli.run(["show", "--json", taskId])).stdout) as { messages: Array<{ say?: string; text: string }> };
    expect(json.messages.filter((message) => message.say === "user_feedback").map((message) => message.text)).toEqual(["please continue"]);
  });

  it.skipIf(!tmuxAvailable())("the terminal UI shows a follow-up given to a headless resume when it opens the task again", { timeout: 120_000 }, async () => {
    const server = await cli.startServer({ turns: [done("first answer"), done("second answer"), done("third answer")] });
    const first = await cli.run(["run", "--json", "--yes", ...anthropicArgs(server), "the first request"]);
    const taskId = String(first.events[0]?.["taskId"]);
    expect((await cli.run(["resume", "--yes", ...anthropicArgs(server), taskId, "please continue"])).status).toBe(0);

    const terminal = await cli.openCairn(["--resume", taskId, "--yes", ...anthropicArgs(server)], { columns: 100 });
    const screen = await terminal.waitFor(/third answer/, { timeoutMs: 60_000 });
    expect(screen).toMatch(/› please continue/);
    expect(screen.indexOf("second answer")).toBeGreaterThan(screen.indexOf("please continue"));
    await terminal.sendKeys("C-c");
    await terminal.sendKeys("C-c");
    await terminal.waitForExit({ timeoutMs: 30_000 });
  });
});
