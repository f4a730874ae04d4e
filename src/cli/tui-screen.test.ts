/**
 * What the terminal UI draws, in a real terminal (tmux, bin/cairn: run
 * `npm run build` first): /help in full at any height, a command a hook
 * blocked, an unknown model, a long answer whole in the scrollback, and a
 * resize while an answer streams.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { slashCommands } from "../ui/tui/slash-commands.js";
import { quitWithCtrlC, tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import type { TmuxSession } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

if (!tmuxAvailable()) console.warn("tmux is not installed: the terminal tests of the screen are skipped (install the tmux package)");

const complete = (result: string) => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });

/** The scrollback and the screen as one text, wrapped lines joined. */
async function everything(session: TmuxSession): Promise<string> {
  return session.captureAll();
}

describe.skipIf(!tmuxAvailable())("the screen of the terminal UI (tmux)", () => {
  it("/help shows every command and every key, whatever the window's height", { timeout: 120_000 }, async () => {
    const server = await cli.startServer({ turns: [complete("unused")] });
    const ui = await cli.openCairn(anthropicArgs(server), { rows: 14 });
    await ui.waitFor(/What should cairn do/, { timeoutMs: 30_000 });
    await ui.sendText("/help");
    await ui.sendKeys("Enter");
    await ui.waitFor(/Ctrl\+C twice/, { timeoutMs: 10_000 });
    const shown = await everything(ui);
    const names = slashCommands.list().map((command) => command.name);
    expect(names.length).toBeGreaterThan(11);
    for (const name of names) expect(shown).toMatch(new RegExp(`/${name}\\b`));
    for (const key of ["Enter", "Shift+Enter", "Esc", "Ctrl+C", "Tab", "Ctrl+T", "Ctrl+O", "Up/Down", "@path"]) expect(shown).toContain(key);
    expect(shown).not.toMatch(/^\s*…\s*$/m);
    expect(server.requests).toHaveLength(0);
    expect(await quitWithCtrlC(ui)).toBe(0);
  });

  it("a command a PreToolUse hook blocked is shown whole, marked blocked with the hook's reason, with no timer", { timeout: 120_000 }, async () => {
    await writeFile(
      join(cli.sandbox.configDir, "cairn", "config.json"),
      JSON.stringify({
        retry: { delaysMs: [10, 20, 40] },
        sandboxOptIn: false,
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo 'network commands are not allowed' >&2; exit 2" }] }] },
      }),
    );
    const command = "curl -s https://example.com/data.json | head -n 5";
    const server = await cli.startServer({
      turns: [{ text: `Fetching.\n<execute_command>\n<command>${command}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`, chunkSize: 6, delayMs: 15 }, complete("gave up on the network")],
    });
    const ui = await cli.openCairn([...anthropicArgs(server), "fetch the data"]);
    const screen = await ui.waitFor(/gave up on the network[\s\S]*Done\?/, { timeoutMs: 60_000 });
    expect(screen).toContain(`● Run $ ${command}`);
    expect(screen).toMatch(/✗ blocked by a PreToolUse hook: network commands are not allowed/);
    // Nothing ran: no timer, not now and not a second later.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await ui.capture()).not.toMatch(/Running/);
    expect(await quitWithCtrlC(ui)).toBe(0);
  });

  it("/model with a name the catalogue does not know warns, and uses it", { timeout: 120_000 }, async () => {
    const server = await cli.startServer({ turns: [complete("answered by my-local-model")] });
    const ui = await cli.openCairn(anthropicArgs(server));
    await ui.waitFor(/What should cairn do/, { timeoutMs: 30_000 });
    await ui.sendText("/model my-local-model");
    await ui.sendKeys("Enter");
    const screen = await ui.waitFor(/Model for the next request: my-local-model/, { timeoutMs: 10_000 });
    expect(screen).toMatch(/⚠ my-local-model is not in cairn's model catalogue/);
    await ui.waitFor(/^ACT · my-local-model/m, { timeoutMs: 10_000 });
    await ui.sendText("say hello");
    await ui.sendKeys("Enter");
    await ui.waitFor(/answered by my-local-model/, { timeoutMs: 60_000 });
    expect(JSON.stringify(server.requests[0]?.body)).toContain('"model":"my-local-model"');
    expect(await quitWithCtrlC(ui)).toBe(0);
  });

  it("a long streamed answer is in the scrollback whole and in order, code and wide characters too, before the completion", { timeout: 120_000 }, async () => {
    const rowCount = 1_500;
    const row = (index: number): string => (index % 100 === 0 ? "```" : index % 100 === 50 ? "```" : index % 3 === 0 ? `Row ${index}: 幅の広い文字 **bold**` : `Row ${index}: \`code\` and words`);
    const server = await cli.startServer({
      turns: [{ text: `${Array.from({ length: rowCount }, (_, index) => row(index)).join("\n")}\n`, chunkSize: 64 }, complete("all rows sent")],
    });
    const ui = await cli.openCairn([...anthropicArgs(server), "--yes", "print the rows"]);
    await ui.waitFor(/all rows sent/, { timeoutMs: 60_000 });
    const all = await everything(ui);
    const rows = [...all.matchAll(/^(?:│ )?Row (\d+): /gm)].map((match) => Number(match[1]));
    const expected = Array.from({ length: rowCount }, (_, index) => index).filter((index) => index % 50 !== 0);
    expect(rows).toEqual(expected);
    expect(all).toContain("Row 1497: 幅の広い文字 bold");
    expect(all.indexOf("Task completed")).toBeGreaterThan(all.lastIndexOf(`Row ${rowCount - 1}:`));
    expect(await quitWithCtrlC(ui)).toBe(0);
  });

  it("resizing the window while an answer streams leaves one checklist panel, not torn copies in the scrollback", { timeout: 180_000 }, async () => {
    const paragraph = "The quick brown fox jumps over the lazy dog while the answer keeps streaming. ";
    const server = await cli.startServer({
      turns: [
        {
          text: "Reading the notes.\n<read_file>\n<path>notes.txt</path>\n<task_progress>\n- [x] Read the notes\n- [ ] Explain them\n- [ ] Finish\n</task_progress>\n</read_file>",
        },
        { text: `${Array.from({ length: 12 }, (_, index) => `Line ${index + 1}: ${paragraph.repeat(2)}`).join("\n")}\n`, chunkSize: 12, delayMs: 25 },
        complete("explained"),
      ],
    });
    await writeFile(join(cli.sandbox.workspace, "notes.txt"), "some notes\n");
    const ui = await cli.openCairn([...anthropicArgs(server), "--yes", "explain the notes"]);
    await ui.waitFor(/Checklist 1\/3/, { timeoutMs: 60_000 });
    await ui.waitFor(/Line 2:/, { timeoutMs: 60_000 });
    for (const [columns, rows] of [
      [60, 30],
      [100, 30],
      [70, 24],
      [90, 34],
      [80, 30],
    ] as const) {
      await ui.resize(columns, rows);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await ui.waitFor(/explained/, { timeoutMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const all = await everything(ui);
    expect(all.match(/Checklist 1\/3/g) ?? []).toHaveLength(1);
    // The answer itself is printed once too.
    expect(all.match(/Line 12:/g) ?? []).toHaveLength(1);
    expect(await quitWithCtrlC(ui)).toBe(0);
  });
});
