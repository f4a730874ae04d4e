/**
 * `cairn histroy` would otherwise start a paid model task named "histroy": a
 * single word close to a command name is taken for a mistyped command. A task
 * of several words is always a task, and so is a single word that is not close
 * to any command ("refactor").
 */
import type { Command } from "commander";
import { editDistance } from "../ui/tui/edit-distance.js";

/**
 * The command names `word` may be a typo of: a name it begins (three letters or
 * more), or one within one edit (two for words of six letters or more: a
 * short word two edits away is another word, `look` is not `hooks`). Those it
 * begins first, then the nearest.
 */
export function commandsNear(word: string, names: readonly string[]): string[] {
  const typed = word.trim().toLowerCase();
  if (typed === "" || /\s/.test(typed)) return [];
  const allowed = typed.length >= 6 ? 2 : 1;
  return names
    .map((name) => ({ name, prefix: typed.length >= 3 && name.startsWith(typed), distance: editDistance(typed, name) }))
    .filter(({ prefix, distance }) => prefix || distance <= allowed)
    .sort((left, right) => Number(right.prefix) - Number(left.prefix) || left.distance - right.distance)
    .map(({ name }) => name);
}

/** The top-level command names of the program, `help` included. */
export function commandNames(program: Command): string[] {
  const names = program.commands.map((command) => command.name());
  return names.includes("help") ? names : [...names, "help"];
}

function meant(near: readonly string[]): string {
  const quoted = near.map((name) => `\`cairn ${name}\``);
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]!}`;
}

/** The message for a task that is a single word close to a command, or undefined when it is a task. */
export function mistypedCommandMessage(words: readonly string[], names: readonly string[]): string | undefined {
  if (words.length !== 1) return undefined;
  const word = words[0]!;
  const near = commandsNear(word, names);
  if (near.length === 0) return undefined;
  return `cairn: \`${word}\` is not a command: did you mean ${meant(near)}? Nothing was started.\n` + `To give cairn a one-word task, describe it in a few more words (cairn "${word} ..."), or start cairn and type it.\n`;
}

/** `cairn help NAME` for a name that is no command: says so and lists the commands. */
export function unknownHelpTopicMessage(topic: string, program: Command): string | undefined {
  const names = commandNames(program);
  if (names.includes(topic)) return undefined;
  const near = commandsNear(topic, names);
  const width = Math.max(...program.commands.map((command) => command.name().length));
  return [
    `cairn: unknown command \`${topic}\`${near.length === 0 ? "" : `: did you mean ${meant(near)}?`}`,
    "Commands:",
    ...program.commands.map((command) => `  ${command.name().padEnd(width)}  ${command.description()}`),
    "Run cairn help <command> for one command's options.",
    "",
  ].join("\n");
}
