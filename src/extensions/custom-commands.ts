/**
 * Custom slash commands from Markdown files: `.cairn/commands/`, the user's
 * config folder, Claude Code's `.claude/commands/` (project and user), and
 * Cline workflows in `.clinerules/workflows/` (typed `/name.md` in Cline;
 * `/name` works too). Sub-folders give `/folder:name`, as in Claude Code.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
import { attributeList, attributeText, parseFrontMatter } from "./front-matter.js";

export interface CustomCommand {
  /** Without the slash: `review`, `frontend:test`. */
  name: string;
  description: string;
  argumentHint?: string;
  allowedTools: string[];
  model?: string;
  /** The Markdown body the arguments are substituted into. */
  body: string;
  file: string;
  scope: "project" | "user";
  kind: "command" | "workflow";
  /** The plugin it comes from (its name is then `plugin:name`). */
  plugin?: string;
}

/** An enabled plugin's command folders and files (src/plugins). */
export interface PluginCommandSource {
  plugin: string;
  paths: readonly string[];
}

export interface CommandFolders {
  workspace: string;
  userConfigDir: string;
  /** Claude Code's user folder (`~/.claude`): its `commands/` are the user's too. */
  claudeUserDir?: string;
  /** Enabled plugins' commands: `/plugin:name`, and `/name` when no other command has that name. */
  plugins?: readonly PluginCommandSource[];
}

async function markdownFiles(folder: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith(".")) continue;
      const path = join(current, entry.name);
      if (entry.isDirectory() && depth < 3) await walk(path, depth + 1);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  };
  await walk(folder, 0);
  return found;
}

function firstLine(body: string): string {
  const line = body.split("\n").find((candidate) => candidate.trim() !== "") ?? "";
  return line
    .replace(/^#+\s*/, "")
    .trim()
    .slice(0, 120);
}

async function readCommand(file: string, name: string, scope: CustomCommand["scope"], kind: CustomCommand["kind"]): Promise<CustomCommand | undefined> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile() || info.size > 200_000) return undefined;
  const { attributes, raw, body } = parseFrontMatter(await readFile(file, "utf8"));
  const argumentHint = attributeText(raw, "argument-hint", "argumentHint");
  const model = attributeText(raw, "model");
  return {
    name,
    description: attributeText(raw, "description") ?? firstLine(body),
    ...(argumentHint === undefined ? {} : { argumentHint }),
    allowedTools: attributeList(attributes, "allowed-tools"),
    ...(model === undefined ? {} : { model }),
    body,
    file,
    scope,
    kind,
  };
}

async function readCommands(folder: string, scope: CustomCommand["scope"], kind: CustomCommand["kind"], prefix = ""): Promise<CustomCommand[]> {
  const commands: CustomCommand[] = [];
  for (const file of await markdownFiles(folder)) {
    const command = await readCommand(file, prefix + relative(folder, file).slice(0, -".md".length).split(sep).join(":"), scope, kind);
    if (command !== undefined) commands.push(command);
  }
  return commands;
}

/** One plugin's commands, each named `plugin:name`. */
export async function pluginCommands(source: PluginCommandSource): Promise<CustomCommand[]> {
  const commands: CustomCommand[] = [];
  for (const path of source.paths) {
    const found = path.endsWith(".md")
      ? [await readCommand(path, `${source.plugin}:${basename(path, ".md")}`, "user", "command")].filter((command) => command !== undefined)
      : await readCommands(path, "user", "command", `${source.plugin}:`);
    commands.push(...found.map((command) => ({ ...command, plugin: source.plugin })));
  }
  return commands;
}

/** Plugin commands by their full names, and by the short name too when no other command has it. */
function withPluginCommands(own: Map<string, CustomCommand>, fromPlugins: readonly CustomCommand[]): void {
  const shortNames = new Map<string, CustomCommand[]>();
  for (const command of fromPlugins) {
    if (own.has(command.name)) continue;
    own.set(command.name, command);
    const short = command.name.slice((command.plugin ?? "").length + 1);
    shortNames.set(short, [...(shortNames.get(short) ?? []), command]);
  }
  for (const [short, commands] of shortNames) {
    const only = commands[0];
    if (commands.length === 1 && only !== undefined && !own.has(short)) own.set(short, { ...only, name: short });
  }
}

/** Every custom command; where two share a name, the project's wins over the user's, cairn's over Claude Code's over Cline's. */
export async function loadCustomCommands(folders: CommandFolders): Promise<CustomCommand[]> {
  const sources: Array<Promise<CustomCommand[]>> = [
    readCommands(join(folders.workspace, ".cairn", "commands"), "project", "command"),
    readCommands(join(folders.workspace, ".claude", "commands"), "project", "command"),
    readCommands(join(folders.workspace, ".clinerules", "workflows"), "project", "workflow"),
    readCommands(join(folders.userConfigDir, "commands"), "user", "command"),
    ...(folders.claudeUserDir ? [readCommands(join(folders.claudeUserDir, "commands"), "user", "command")] : []),
  ];
  const byName = new Map<string, CustomCommand>();
  for (const command of (await Promise.all(sources)).flat()) if (!byName.has(command.name)) byName.set(command.name, command);
  withPluginCommands(byName, (await Promise.all((folders.plugins ?? []).map(pluginCommands))).flat());
  return [...byName.values()];
}

/** Splits arguments like a shell would for `$1..$9`: spaces separate, quotes group. */
export function splitArguments(text: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of text.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3] ?? "");
  return words;
}

/**
 * `$ARGUMENTS` is everything after the name, `$1..$9` single arguments. A body
 * that uses neither gets the arguments appended, so they are never lost.
 */
export function expandCommandBody(body: string, argumentText: string): string {
  const words = splitArguments(argumentText);
  const usesArguments = /\$ARGUMENTS|\$[1-9]/.test(body);
  const expanded = body.replaceAll("$ARGUMENTS", argumentText).replace(/\$([1-9])/g, (_, digit: string) => words[Number(digit) - 1] ?? "");
  if (usesArguments || argumentText.trim() === "") return expanded.trim();
  return `${expanded.trim()}\n\n${argumentText.trim()}`;
}

/** `/name args` (or Cline's `/name.md args`) when `name` is a custom command. */
export function matchCustomCommand(text: string, commands: readonly CustomCommand[]): { command: CustomCommand; argumentText: string } | undefined {
  const match = /^\/([^\s]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  const typed = (match[1] ?? "").replace(/\.md$/, "");
  const command = commands.find((candidate) => candidate.name === typed);
  return command ? { command, argumentText: match[2] ?? "" } : undefined;
}

/** The task text a typed command becomes. */
export function expandCustomCommand(text: string, commands: readonly CustomCommand[]): { task: string; command: CustomCommand } | undefined {
  const matched = matchCustomCommand(text, commands);
  if (!matched) return undefined;
  return { task: expandCommandBody(matched.command.body, matched.argumentText), command: matched.command };
}
