/** The slash commands every terminal UI has (docs/tui.md lists them). */
import type { SlashCommand, SlashCommandRegistry } from "./slash-commands.js";

const initPrompt = [
  "Look at this project (its layout, build and test commands, conventions, and anything a newcomer would trip on)",
  "and write an AGENTS.md at its root for coding agents: how to build, test and lint; where things live; the rules to follow.",
  "Keep it short and true. If an AGENTS.md (or CLAUDE.md / .clinerules) exists, improve it instead of starting over.",
].join(" ");

export function builtinSlashCommands(registry: SlashCommandRegistry): SlashCommand[] {
  return [
    {
      name: "help",
      description: "List the commands and keys",
      run: ({ print }) => {
        const lines = registry.list().map((command) => `  /${command.name}${command.usage ? ` ${command.usage}` : ""}  ${command.description}`);
        print(
          [
            "Commands (handled by cairn, never sent to the model):",
            ...lines,
            "Keys:",
            "  Enter  send the message, or answer the question (in a menu: the highlighted choice)",
            "  Shift+Enter, Alt+Enter or \\ then Enter  a new line",
            "  Esc  stop the current step (in a question's reply: back to its choices); twice on an empty input: /rewind",
            "  Tab or Ctrl+T  plan/act mode (at the plan prompt: act, and carry the plan out)",
            "  Ctrl+O  show or fold the last reasoning and the subagents' details",
            "  Up/Down  earlier messages (with a queued message: take it back to edit)",
            "  1-9  choose an option of a question",
            "  Ctrl+A/Ctrl+E, Home/End, Ctrl+W, Ctrl+U, Ctrl+K  edit the line",
            "  Ctrl+C twice  quit",
            "Mentions: @path attaches a file (a folder: its listing), @https://… a page, @git-changes the working-tree diff; Tab after @path completes it.",
          ].join("\n"),
        );
      },
    },
    {
      name: "clear",
      description: "Start a new task (the next message is a new task)",
      run: ({ session, print }) => {
        session.newTask();
        print("New task: the next message starts it.");
      },
    },
    {
      name: "model",
      usage: "[model|profile]",
      description: "Show or switch the model or provider profile for the next request",
      run: async ({ args, session, print }) => {
        if (args === "") {
          print(`Model: ${session.describeModel()}. Switch with /model <model id or profile name>.`);
          const choices = session.modelChoices?.() ?? [];
          if (choices.length > 0) print(`Known models for this provider: ${choices.join(", ")}. A profile can switch provider (openai-responses, gemini, ...).`);
          return;
        }
        print(`Model for the next request: ${await session.setModel(args)}`);
        // Custom and local models are allowed; a typo should not go unnoticed until the request fails.
        const warning = session.modelWarning?.();
        if (warning !== undefined) print(warning, "warning");
      },
    },
    {
      name: "mode",
      usage: "plan|act",
      description: "Plan (read-only, discuss) or act (use tools)",
      run: ({ args, session, print }) => {
        const mode = args.toLowerCase();
        if (mode !== "plan" && mode !== "act") {
          print("Usage: /mode plan|act", "error");
          return;
        }
        session.setMode(mode);
        print(`Mode: ${mode}`);
      },
    },
    { name: "cost", description: "Tokens and cost of this task and session", run: ({ session, print }) => print(session.costReport()) },
    {
      name: "undo",
      description: "Take back the last step's changes to the files (again: the step before)",
      run: async ({ session, print }) => print(await session.undo()),
    },
    {
      name: "restore",
      usage: "<checkpoint> [files|task|both]",
      description: "Restore a checkpoint's files and/or conversation",
      run: async ({ args, session, print }) => {
        const match = /^(\S+)(?:\s+(files|task|both))?$/.exec(args);
        if (match?.[1] === undefined) {
          print("Usage: /restore <checkpoint> [files|task|both] (the hashes are shown as ◇ Checkpoint lines)", "error");
          return;
        }
        print(await session.restore(match[1], (match[2] ?? "both") as "files" | "task" | "both"));
      },
    },
    {
      name: "rewind",
      usage: "[N] [conversation|files|both]",
      description: "Take the task back to before your message N (without N: list them); Esc twice on an empty input lists them too",
      run: async ({ args, session, print, setInput }) => {
        const match = /^(?:(\d+))?\s*(conversation|files|both)?$/.exec(args);
        if (match === null || session.rewind === undefined) {
          print(session.rewind === undefined ? "/rewind is not available here." : "Usage: /rewind [N] [conversation|files|both] (N: your message, 1 for the task)", "error");
          return;
        }
        const reply = await session.rewind(match[1] === undefined ? undefined : Number(match[1]), (match[2] ?? "both") as "conversation" | "files" | "both");
        print(reply.text);
        if (reply.input !== undefined) setInput?.(reply.input);
      },
    },
    {
      name: "fork",
      usage: "[N]",
      description: "Start a new task from this one (before your message N; default: all of it) and continue there",
      run: async ({ args, session, print }) => {
        if (session.fork === undefined || !/^\d*$/.test(args)) {
          print(session.fork === undefined ? "/fork is not available here." : "Usage: /fork [N] (N: your message to fork before, 1 for the task)", "error");
          return;
        }
        print(await session.fork(args === "" ? undefined : Number(args)));
      },
    },
    { name: "history", description: "This folder's tasks", run: async ({ session, print }) => print(await session.history()) },
    {
      name: "resume",
      usage: "[task id]",
      description: "Continue one of this folder's tasks (default: the latest)",
      run: async ({ args, session, print }) => print(await session.resume(args === "" ? undefined : args)),
    },
    { name: "mcp", description: "The MCP servers configured for this folder", run: async ({ session, print }) => print(await session.mcpReport()) },
    {
      name: "plugins",
      usage: "[enable|disable <plugin>]",
      description: "The installed plugins (cairn plugin install adds one), or switch one on or off",
      run: async ({ args, session, print }) => print(session.plugins === undefined ? "/plugins is not available here." : await session.plugins(args)),
    },
    {
      name: "init",
      description: "Ask the model to write an AGENTS.md for this project",
      run: ({ send }) => send(initPrompt),
    },
    { name: "compact", description: "Condense the conversation now (docs/context.md)", run: ({ session }) => session.contextCommand("compact") },
    { name: "uncompact", description: "Restore the conversation as it was before the last compaction", run: ({ session }) => session.contextCommand("uncompact") },
    { name: "ps", description: "The background processes the model started", run: ({ session, print }) => print(session.processReport?.() ?? "No background processes here.") },
    {
      name: "kill",
      usage: "<id>",
      description: "End a background process (ids from /ps)",
      run: async ({ args, session, print }) => print((await session.killProcess?.(args)) ?? "No background processes here."),
    },
    { name: "exit", description: "Quit cairn", run: ({ session }) => session.exit() },
  ];
}

/** Adds the built-in commands to a registry (a feature's own command of the same name replaces one). */
export function registerBuiltinSlashCommands(registry: SlashCommandRegistry): void {
  for (const command of builtinSlashCommands(registry)) {
    if (registry.get(command.name) === undefined) registry.register(command);
  }
}
