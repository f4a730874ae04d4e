/**
 * Answering cairn's questions in a real terminal (tmux, 80x30, bin/cairn: run
 * `npm run build` first): approvals are a menu that typing cannot answer, the
 * plan prompt's Tab approves the plan in act mode, and replies typed at
 * prompts join the ↑ history.
 */
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { quitWithCtrlC, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

if (!tmuxAvailable()) console.warn("tmux is not installed: the terminal tests of questions are skipped (install the tmux package)");

const writeHello = { text: "<write_to_file>\n<path>hello.txt</path>\n<content>\nhello\n</content>\n</write_to_file>" };
const complete = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

describe.skipIf(!tmuxAvailable())("questions in the terminal UI (tmux)", () => {
  it("typing 'no wait' at an approval answers nothing; Enter sends it to the model as the reply; 1 approves; the reply is in the ↑ history", { timeout: 180_000 }, async () => {
    const server = await cli.startServer({ turns: [writeHello, writeHello, complete("wrote it after all")] });
    const ui = await cli.openCairn([...anthropicArgs(server), "write hello"]);
    const asked = await ui.waitFor(/Allow this\?[\s\S]*1\. Yes[\s\S]*2\. No[\s\S]*3\. Tell cairn what to do instead/, { timeoutMs: 60_000 });
    expect(asked).not.toMatch(/y\/Enter/);
    await ui.sendText("no wait");
    const typing = await ui.waitFor(/› no wait/, { timeoutMs: 10_000 });
    // Still asking: the n rejected nothing, and nothing was written.
    expect(typing).toMatch(/Tell cairn what to do instead · Enter sends/);
    expect(typing).not.toMatch(/rejected/);
    await expect(access(join(cli.sandbox.workspace, "hello.txt"))).rejects.toThrow();
    expect(server.requests).toHaveLength(1);
    await ui.sendKeys("Enter");
    await ui.waitFor(/Allow this\?[\s\S]*1\. Yes/, { timeoutMs: 60_000 });
    const reply = JSON.stringify(server.requests[1]?.body);
    expect(reply).toContain("The user denied this operation; it did not run.\\nThe user said:\\n<feedback>\\nno wait\\n</feedback>");
    await expect(access(join(cli.sandbox.workspace, "hello.txt"))).rejects.toThrow();
    await ui.sendKeys("1");
    await ui.waitFor(/wrote it after all[\s\S]*Done\?/, { timeoutMs: 60_000 });
    expect(await readFile(join(cli.sandbox.workspace, "hello.txt"), "utf8")).toBe("hello\n");
    // The reply typed at the approval comes back with ↑, like a message.
    await ui.sendKeys("Up");
    await ui.waitFor(/│ › no wait/, { timeoutMs: 10_000 });
    expect(await quitWithCtrlC(ui)).toBe(0);
  });

  it("'Yes, and always allow' saves the suggested rule: the same command is not asked again", { timeout: 180_000 }, async () => {
    const command = { text: "<execute_command>\n<command>git status --short</command>\n<requires_approval>true</requires_approval>\n</execute_command>" };
    const server = await cli.startServer({ turns: [command, command, complete("checked twice")] });
    const ui = await cli.openCairn([...anthropicArgs(server), "check the status"]);
    const asked = await ui.waitFor(/Run this command\?[\s\S]*2\. Yes, and always allow (\S+)/, { timeoutMs: 60_000 });
    const rule = /always allow (\S+)/.exec(asked)?.[1];
    expect(rule).toBeDefined();
    await ui.sendKeys("2");
    await ui.waitFor(/checked twice[\s\S]*Done\?/, { timeoutMs: 60_000 });
    // One approval only: the second call ran under the saved rule.
    expect((await ui.captureAll()).match(/✓ approved/g) ?? []).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
    expect(await readFile(join(cli.sandbox.configDir, "cairn", "config.json"), "utf8")).toContain(rule!);
    expect(await quitWithCtrlC(ui)).toBe(0);
  });

  it("Tab at the plan prompt switches to act mode and carries the plan out", { timeout: 180_000 }, async () => {
    const server = await cli.startServer({
      turns: [{ text: "<plan_mode_respond>\n<response>1. Write hello.txt\n2. Done</response>\n</plan_mode_respond>" }, complete("carried out the plan")],
    });
    const ui = await cli.openCairn([...anthropicArgs(server), "--plan", "plan the hello file"]);
    await ui.waitFor(/Reply to the plan, or Tab to switch to act mode/, { timeoutMs: 60_000 });
    await ui.waitFor(/^PLAN · /m, { timeoutMs: 10_000 });
    await ui.sendKeys("Tab");
    await ui.waitFor(/carried out the plan/, { timeoutMs: 60_000 });
    expect(await ui.capture()).toMatch(/^ACT · /m);
    expect(JSON.stringify(server.requests[1]?.body)).toContain("approved the plan and switched to ACT MODE");
    expect(await quitWithCtrlC(ui)).toBe(0);
  });
});
