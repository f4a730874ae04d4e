/**
 * The terminal UI's slash commands that come from the user's files and from
 * rules: every custom command and workflow, `/newrule`, and `/rules`. A
 * custom command is sent as typed (`/name args`): the session expands it, so
 * its `model` and `allowed-tools` apply as they do headless.
 */
import { join } from "node:path";
import { builtinPromptCommands } from "../extensions/builtin-commands.js";
import { loadCustomCommands } from "../extensions/custom-commands.js";
import type { PluginCommandSource } from "../extensions/custom-commands.js";
import { TaskRules } from "../prompt/task-rules.js";

export interface ExtensionSlashCommand {
  name: string;
  description: string;
  usage?: string;
  run(context: { args: string; print: (text: string, kind?: "info" | "error") => void; send: (text: string) => void }): void | Promise<void>;
}

export async function extensionSlashCommands(options: {
  workspace: string;
  userConfigDir: string;
  /** Claude Code's user folder (`~/.claude`): its commands and memory. */
  claudeUserDir: string;
  /** The current task's rules, when a task is open (its toggles and touched files). */
  currentRules: () => TaskRules | undefined;
  /** Enabled plugins' commands (src/plugins). */
  plugins?: readonly PluginCommandSource[];
}): Promise<ExtensionSlashCommand[]> {
  const sendTyped =
    (name: string) =>
    ({ args, send }: { args: string; send: (text: string) => void }): void =>
      send(args === "" ? `/${name}` : `/${name} ${args}`);
  const commands: ExtensionSlashCommand[] = builtinPromptCommands.map((command) => ({
    name: command.name,
    description: command.description,
    ...(command.argumentHint === undefined ? {} : { usage: command.argumentHint }),
    run: sendTyped(command.name),
  }));
  commands.push({
    name: "rules",
    description: "List the rules in force, or switch one off or on for this task",
    usage: "[rule]",
    run: async ({ args, print }) => {
      const rules = options.currentRules() ?? new TaskRules({ workspace: options.workspace, globalRulesDir: join(options.userConfigDir, "rules"), claudeUserDir: options.claudeUserDir });
      print(await rules.command(args));
    },
  });
  for (const command of await loadCustomCommands({ workspace: options.workspace, userConfigDir: options.userConfigDir, claudeUserDir: options.claudeUserDir, plugins: options.plugins ?? [] })) {
    commands.push({
      name: command.name,
      description: `${command.description} (${command.kind === "workflow" ? "workflow" : command.plugin !== undefined ? `plugin ${command.plugin}` : command.scope === "user" ? "your command" : "project command"})`,
      ...(command.argumentHint === undefined ? {} : { usage: command.argumentHint }),
      run: sendTyped(command.name),
    });
  }
  return commands;
}
