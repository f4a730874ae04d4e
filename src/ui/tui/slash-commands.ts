/**
 * Slash commands of the terminal UI: handled locally, never sent to the model.
 *
 * A command is `/` and a name at the very start of the input, followed by the
 * end of the input or a space (`/etc/hosts is wrong` is text: the name is
 * followed by `/`). Features add their own with one call:
 *
 *     registerSlashCommand({ name: "compact", description: "Summarise the conversation", run: (context) => ... });
 *
 * Built-in commands live in builtin-slash-commands.ts and are registered into
 * the default registry the first time it is used.
 */
import type { Task } from "../../task/task.js";
import { registerBuiltinSlashCommands } from "./builtin-slash-commands.js";
import { editDistance } from "./edit-distance.js";
import type { TuiMode } from "./controller.js";

/** What the CLI offers the commands (the interactive controller implements it). */
export interface SlashSession {
  /** The running or last Task of this UI, if any (e.g. for /compact). */
  currentTask(): Task | undefined;
  /** The task id the next message continues, if any. */
  currentTaskId(): string | undefined;
  /** Forgets the current task: the next message starts a new one. */
  newTask(): void;
  /** Switches model or provider profile for the next request; resolves with what is now used. */
  setModel(spec: string): Promise<string>;
  /** The model (and profile) in use. */
  describeModel(): string;
  /** Other models the current provider serves, listed by /model without arguments (#20). */
  modelChoices?(): string[];
  /** A warning about the model in use (e.g. the catalogue does not know it), or undefined. */
  modelWarning?(): string | undefined;
  setMode(mode: TuiMode): void;
  /** Tokens and cost of the task and of this session, as lines to show. */
  costReport(): string;
  /** Restores the files of the last checkpoint of the current task. */
  undo(): Promise<string>;
  /** `/restore <checkpoint> [files|task|both]`. */
  restore(checkpoint: string, mode: "files" | "task" | "both"): Promise<string>;
  /** `/rewind [N] [conversation|files|both]`: without N, your messages; with it, the task taken back to before message N (its text to put back in the input). */
  rewind?(to: number | undefined, mode: "conversation" | "files" | "both"): Promise<{ text: string; input?: string }>;
  /** `/fork [N]`: a new task from this one (before your message N), which the next message continues. */
  fork?(at: number | undefined): Promise<string>;
  /** This folder's tasks, newest first, as lines to show. */
  history(): Promise<string>;
  /** Opens a task of this folder (an id or prefix; none: the latest) so the next message continues it. */
  resume(taskId: string | undefined): Promise<string>;
  /** The MCP servers and their state. */
  mcpReport(): Promise<string>;
  /** `/plugins [enable|disable NAME]`: the installed plugins, or one switched on or off from the next task. */
  plugins?(args: string): Promise<string>;
  /** `/compact` condenses the conversation now (or before the next request while a step runs); `/uncompact` undoes the last one. */
  contextCommand(command: "compact" | "uncompact"): void;
  /** `/ps`: the background processes (#31), as lines to show. */
  processReport?(): string;
  /** `/kill ID`: ends one background process; says what it did. */
  killProcess?(id: string): Promise<string>;
  exit(): void;
}

export interface SlashCommandContext {
  /** What followed the name, trimmed. */
  args: string;
  /** Shows a line in the transcript; never sent to the model. */
  print: (text: string, kind?: "info" | "warning" | "error") => void;
  /** Sends text to the model as the user's message (a new task, or the next message of the current one). */
  send: (text: string) => void;
  session: SlashSession;
  /** Puts text in the input line, to edit and send (a terminal UI only). */
  setInput?: (text: string) => void;
}

export interface SlashCommand {
  /** Without the slash: `help`, `compact`, `review-pr` (letters, digits, `-`, `_`, `:`). */
  name: string;
  /** One line for /help and the completion menu. */
  description: string;
  /** Shown after the name in /help, e.g. `plan|act`. */
  usage?: string;
  run(context: SlashCommandContext): void | Promise<void>;
}

export type ParsedInput = { kind: "text" } | { kind: "command"; name: string; args: string };

const commandPattern = /^\/([A-Za-z][\w:-]*)(?:\s+([\s\S]*))?$/;

/** Decides whether typed input is a command: `/` + name at the very start, then a space or the end. */
export function parseSlashInput(input: string): ParsedInput {
  const match = commandPattern.exec(input.trimEnd());
  if (match?.[1] === undefined || input.startsWith(" ")) return { kind: "text" };
  return { kind: "command", name: match[1].toLowerCase(), args: (match[2] ?? "").trim() };
}

export class SlashCommandRegistry {
  private readonly commands = new Map<string, SlashCommand>();
  /** Commands that come and go (an MCP server's prompts), read at each use; a registered command of the same name wins. */
  private readonly sources: Array<() => SlashCommand[]> = [];

  /** Adds a command; a later one with the same name replaces the earlier (a user's own wins). */
  register(command: SlashCommand): void {
    this.commands.set(command.name.toLowerCase(), command);
  }

  /** Adds commands that change while the UI runs: `source` is asked at each use. */
  addSource(source: () => SlashCommand[]): void {
    this.sources.push(source);
  }

  private all(): Map<string, SlashCommand> {
    const all = new Map<string, SlashCommand>();
    for (const command of this.sources.flatMap((source) => source())) all.set(command.name.toLowerCase(), command);
    for (const [name, command] of this.commands) all.set(name, command);
    return all;
  }

  get(name: string): SlashCommand | undefined {
    return this.all().get(name.toLowerCase());
  }

  list(): SlashCommand[] {
    return [...this.all().values()].sort((left, right) => left.name.localeCompare(right.name));
  }

  /** Commands whose name starts with `prefix` (without the slash), for the completion menu. */
  complete(prefix: string): SlashCommand[] {
    const lower = prefix.toLowerCase();
    return this.list().filter((command) => command.name.toLowerCase().startsWith(lower));
  }

  /** The commands the completion menu offers for what is typed (none when it is not a command name). */
  menuFor(typed: string): SlashCommand[] {
    const match = /^\/([\w:-]*)$/.exec(typed);
    return match?.[1] === undefined ? [] : this.complete(match[1]);
  }

  /** The closest known name, for the hint after a typo. */
  closest(name: string): string | undefined {
    let best: { name: string; distance: number } | undefined;
    for (const command of this.all().values()) {
      const distance = editDistance(name.toLowerCase(), command.name);
      if (best === undefined || distance < best.distance) best = { name: command.name, distance };
    }
    return best !== undefined && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.name : undefined;
  }

  /**
   * Runs typed input if it is a command. Returns false for plain text (the
   * caller sends it to the model); an unknown command is an error, never a request.
   */
  async execute(input: string, context: Omit<SlashCommandContext, "args">): Promise<boolean> {
    const parsed = parseSlashInput(input);
    if (parsed.kind === "text") return false;
    const command = this.get(parsed.name);
    // An MCP server's prompt: the session expands it once the servers are up (src/session/mcp-references.ts).
    if (command === undefined && parsed.name.startsWith("mcp__")) return false;
    if (command === undefined) {
      const near = this.closest(parsed.name);
      context.print(`Unknown command /${parsed.name}.${near === undefined ? "" : ` Did you mean /${near}?`} Type /help for the list.`, "error");
      return true;
    }
    try {
      await command.run({ ...context, args: parsed.args });
    } catch (error) {
      context.print(`/${command.name} failed: ${error instanceof Error ? error.message : String(error)}`, "error");
    }
    return true;
  }
}

/** The registry the terminal UI uses. */
export const slashCommands = new SlashCommandRegistry();

/** The one-line call features use to add a command to the terminal UI. */
export function registerSlashCommand(command: SlashCommand): void {
  slashCommands.register(command);
}

registerBuiltinSlashCommands(slashCommands);
