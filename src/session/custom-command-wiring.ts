/**
 * A task typed as `/name args` runs the custom command `name` (headless too:
 * `cairn run "/review src/a.ts"`): its body, with the arguments substituted,
 * becomes the task; its `model` front matter picks the model, and its
 * `allowed-tools` lift asks while it runs (a project's only once the folder is trusted).
 */
import type { ResolvedSettings } from "../config/index.js";
import type { SessionOptions } from "./session.js";
import { expandBuiltinPromptCommand } from "../extensions/builtin-commands.js";
import { expandCustomCommand, loadCustomCommands } from "../extensions/custom-commands.js";
import { enabledPlugins, pluginPlaces } from "../plugins/plugin-contributions.js";

export interface StartCommand {
  task: string;
  settings: ResolvedSettings;
  notice?: string;
  /** The command's `allowed-tools`: calls that need no approval ask while it runs. */
  allowedTools?: string[];
}

export async function applyStartCommand(settings: ResolvedSettings, task: string): Promise<StartCommand> {
  if (!task.trimStart().startsWith("/")) return { task, settings };
  const plugins = await enabledPlugins(pluginPlaces(settings));
  const commands = await loadCustomCommands({ workspace: settings.cwd, userConfigDir: settings.userConfigDir, claudeUserDir: settings.claudeUserDir, plugins: plugins.commands });
  const expanded = expandCustomCommand(task, commands);
  if (!expanded) {
    const builtin = expandBuiltinPromptCommand(task);
    return builtin ? { task: builtin.task, settings, notice: `Running /${builtin.command.name}` } : { task, settings };
  }
  const { command } = expanded;
  // A project's command may only narrow until the folder is trusted: its allowed-tools would lift asks.
  const heldBack = command.scope === "project" && !settings.trust.trusted && command.allowedTools.length > 0;
  const held = heldBack ? `; its allowed-tools (${command.allowedTools.join(", ")}) are ignored because this folder is not trusted yet (run once with --trust)` : "";
  return {
    task: expanded.task,
    settings: command.model === undefined ? settings : { ...settings, model: command.model },
    notice: `Running the ${command.kind} /${command.name} (${command.file})${held}`,
    allowedTools: heldBack ? [] : command.allowedTools,
  };
}

/** A new task (or a message) typed as `/name args` runs that custom command: the session with its text, model and allowed tools. */
export async function withStartCommand(options: SessionOptions): Promise<{ options: SessionOptions; allowedTools: string[] }> {
  const { start } = options;
  const typed = start.kind === "new" ? start.task : start.message;
  if (typed === undefined) return { options, allowedTools: [] };
  const applied = await applyStartCommand(options.settings, typed);
  if (applied.notice !== undefined) options.onNotice?.(applied.notice);
  const expanded: SessionOptions["start"] = start.kind === "new" ? { ...start, task: applied.task } : { ...start, message: applied.task };
  return { options: { ...options, settings: applied.settings, start: expanded }, allowedTools: applied.allowedTools ?? [] };
}
