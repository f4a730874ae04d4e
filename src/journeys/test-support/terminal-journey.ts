/**
 * What the terminal journeys share: a user's sandbox with the sandbox setting
 * left alone (on wherever bubblewrap works, as for a real user), the model's
 * turns written the way the scripted server plays them, and the keys a person
 * presses to leave cairn.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ScenarioTurn as Turn } from "../../llm/scripted/scenario.js";
import { useTerminalFixture } from "../../cli/test-support/terminal-fixture.js";
import type { TerminalFixture } from "../../cli/test-support/terminal-fixture.js";
import type { Sandbox } from "../../cli/test-support/cli-harness.js";
import type { TmuxSession } from "../../ui/tui/test-support/tmux.js";
export { quitWithCtrlC } from "../../ui/tui/test-support/tmux.js";

/** A terminal fixture whose user config holds only fast retries (the harness turns the sandbox off; a journey's user has not). */
export function useJourneyTerminal(options: { prepare?: (sandbox: Sandbox) => Promise<void> } = {}): TerminalFixture {
  return useTerminalFixture({
    prepare: async (sandbox) => {
      await writeFile(join(sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] } }));
      await options.prepare?.(sandbox);
    },
  });
}

/** The screen as one line: long lines wrap at the terminal's width. */
export function flat(screen: string): string {
  return screen.replace(/\n/g, " ").replace(/\s+/g, " ");
}

/** The screen without any blank: where the terminal wrapped a line does not matter. */
export function squeezed(text: string): string {
  return text.replace(/\s+/g, "");
}

/** Types a line and presses Enter, as a person does (two keystrokes). */
export async function typeLine(ui: TmuxSession, text: string): Promise<void> {
  await ui.sendText(text);
  await ui.sendKeys("Enter");
}

export const say = (text: string, extra: Partial<Turn> = {}): Turn => ({ text, ...extra });

export const writeFileTurn = (path: string, content: string, before = ""): Turn => ({
  text: `${before}<write_to_file>\n<path>${path}</path>\n<content>\n${content}\n</content>\n</write_to_file>`,
});

export const replaceTurn = (path: string, search: string, replacement: string, before = ""): Turn => ({
  text: `${before}<replace_in_file>\n<path>${path}</path>\n<diff>\n------- SEARCH\n${search}\n=======\n${replacement}\n+++++++ REPLACE\n</diff>\n</replace_in_file>`,
});

export const commandTurn = (command: string, before = ""): Turn => ({
  text: `${before}<execute_command>\n<command>${command}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`,
});

export const completeTurn = (result: string): Turn => ({ text: `<attempt_completion>\n<result>${result}</result>\n</attempt_completion>` });
