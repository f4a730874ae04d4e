/**
 * Escape sequences from the model and from command output never reach the
 * user's terminal: not in text mode (stdout and stderr), not in an approval
 * prompt, not in `cairn show`, not in the terminal UI. `--json` keeps the
 * data intact (JSON escapes it).
 */
import { describe, expect, it } from "vitest";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { anthropicArgs } from "./test-support/cli-fixture.js";
import { startCli } from "./test-support/cli-harness.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

const escape = "\u001b";
/** What a terminal would obey: ESC, C1 controls, and C0 controls but newline and tab. */
const terminalControl = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const clipboardWrite = `${escape}]52;c;cm0gLXJmIH4vKgo=\u0007`;
const windowTitle = `${escape}]0;pwned-title\u0007`;
const clearScreen = `${escape}[2J${escape}[H`;
const deviceControl = `${escape}P+q544e${escape}\\`;
const hostile = `${clipboardWrite}${windowTitle}${clearScreen}${deviceControl}\u009b1A`;

const command = (text: string): string => `<execute_command>\n<command>${text}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`;
/** printf's own escapes: the command text is plain, its output holds the sequences. */
const printHostile = command("printf 'out\\033]52;c;cHduZWQ=\\007\\033]0;cmd-title\\007\\033[2J\\033P1$r\\033\\\\put\\n'; printf 'err\\033]0;stderr-title\\007\\n' >&2");

const hostileTurns = [{ text: `Working${hostile} on it.\n${printHostile}`, chunkSize: 5 }, { text: `<attempt_completion>\n<result>Done${clipboardWrite} here</result>\n</attempt_completion>` }];

describe("escape sequences from the model and from commands never reach the terminal", () => {
  it("text mode: the answer, command output (stdout and stderr), the result and `cairn show` print no escape sequence; --json keeps the data", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: hostileTurns });
    const run = startCli(["run", ...anthropicArgs(server), "--yes", `the task${windowTitle}`], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    const status = await run.exit;
    expect(status, run.stderr).toBe(0);
    // The answer on stdout, the command's output (its stdout and stderr) with the other status lines on stderr.
    expect(run.stdout).toContain("Working on it.");
    expect(run.stderr).toContain("output");
    expect(run.stdout).toContain("Done here");
    expect(run.stdout).not.toMatch(terminalControl);
    expect(run.stderr).not.toMatch(terminalControl);

    const taskId = /^task (\S+)/m.exec(run.stderr)?.[1] ?? "";
    const shown = await cli.run(["show", taskId]);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("Working on it.");
    expect(shown.stdout).not.toMatch(terminalControl);
    const history = await cli.run(["history"]);
    expect(history.stdout).toContain("the task");
    expect(history.stdout).not.toMatch(terminalControl);

    // --json: the data as it was, escaped by JSON (C1 controls too), so the raw bytes never appear on stdout.
    const json = await cli.run(["show", taskId, "--json"]);
    expect(json.stdout).not.toMatch(terminalControl);
    const shownText = (JSON.parse(json.stdout) as { messages: Array<{ text: string }> }).messages.map((message) => message.text).join("\n");
    expect(shownText).toContain(`Working${hostile} on it.`);
    const again = await cli.startServer({ turns: hostileTurns });
    const live = await cli.run(["run", ...anthropicArgs(again), "--yes", "--json", "again"]);
    expect(live.status, live.stderr).toBe(0);
    expect(live.stdout).not.toMatch(terminalControl);
    expect(live.messages.map((message) => message.text)).toContain(`Working${hostile} on it.`);
  });

  it("a question and an approval prompt in text mode show no escape sequence from the model", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({
      turns: [
        { text: `<ask_followup_question>\n<question>Proceed${clearScreen}${windowTitle}?</question>\n<options>["first\\u001b[2J\\u001b]0;option-title\\u0007", "second"]</options>\n</ask_followup_question>` },
        { text: `<write_to_file>\n<path>notes${windowTitle}.txt</path>\n<content>\nhello${clipboardWrite}\n</content>\n</write_to_file>` },
        { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" },
      ],
    });
    const run = startCli(["run", ...anthropicArgs(server), "go"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace, keepStdinOpen: true });
    // Questions and approvals are on stderr (stdout is the answer's).
    await run.waitForOutput(/\? Proceed/, "stderr");
    run.child.stdin?.write("yes please\n");
    await run.waitForOutput(/\? Approve/, "stderr");
    run.child.stdin?.end("n\n");
    await run.exit;
    expect(run.stderr).toContain("Proceed?");
    expect(run.stderr).toContain("1. first");
    expect(run.stdout).not.toMatch(terminalControl);
    expect(run.stderr).not.toMatch(terminalControl);
  });

  it.skipIf(!tmuxAvailable())("the terminal UI: the model's text, its checklist and a command's output cannot set the window title", { timeout: 120_000 }, async () => {
    const server = await cli.startServer({
      turns: [
        // The checklist panel shows the model's own lines: it sets the title too, if anything does.
        { text: `Looking${windowTitle}${clearScreen} now.\n${printHostile.replace("</execute_command>", `<task_progress>\n- [ ] check the page${windowTitle}\n</task_progress>\n</execute_command>`)}` },
        { text: `<attempt_completion>\n<result>Finished${clipboardWrite}</result>\n</attempt_completion>` },
      ],
    });
    const terminal = await cli.openCairn([...anthropicArgs(server), "--yes", "look"]);
    await terminal.waitFor(/Finished/, { timeoutMs: 60_000 });
    const screen = await terminal.captureAll();
    expect(screen).toContain("Looking now.");
    expect(screen).toContain("check the page");
    expect(await terminal.paneTitle()).not.toMatch(/title/);
  });
});
