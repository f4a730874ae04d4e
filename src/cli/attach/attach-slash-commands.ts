/** The slash commands of a terminal attached to a task in `cairn serve` (docs/server.md, docs/tui.md). */
import { builtinSlashCommands } from "../../ui/tui/builtin-slash-commands.js";
import { SlashCommandRegistry, type SlashCommand } from "../../ui/tui/slash-commands.js";

/** The local UI's commands an attached terminal has too: they go through the server's API. */
const throughTheServer = new Set(["mode", "model", "undo", "restore"]);

/** `prompts`: the task's MCP prompts (remote-prompts.ts), listed in the menu as the local UI lists them. */
export function attachSlashCommands(prompts?: () => SlashCommand[]): SlashCommandRegistry {
  const registry = new SlashCommandRegistry();
  if (prompts !== undefined) registry.addSource(prompts);
  const leave = {
    description: "Leave this terminal; the task goes on in the server (cairn attach brings it back)",
    run: ({ session }: { session: { exit(): void } }) => session.exit(),
  };
  registry.register({ name: "detach", ...leave });
  registry.register({ name: "exit", ...leave });
  for (const command of builtinSlashCommands(registry)) if (throughTheServer.has(command.name)) registry.register(command);
  registry.register({
    name: "help",
    description: "List the commands and keys",
    run: ({ print }) => {
      const lines = registry.list().map((command) => `  /${command.name}  ${command.description}`);
      print(
        [
          "Attached to a task of cairn serve: what you see, every other client sees. /undo and /restore stop the task first; a message goes on from there.",
          "Commands:",
          ...lines,
          "Keys:",
          "  Tab  switch the task between plan and act (for every client; its next request uses it)",
          "  Enter  send the message to the task (a running task reads it at its next tool boundary; a stopped one is resumed with it), or answer the question",
          "  1-9, Up/Down and Enter  choose an option of a question",
          "  Esc twice (or Ctrl+C twice)  stop the task (Ctrl+C twice also leaves)",
          "  Ctrl+D on an empty line, or /detach  leave; the task goes on",
          "  Ctrl+O  show or fold the last reasoning",
        ].join("\n"),
      );
    },
  });
  return registry;
}
