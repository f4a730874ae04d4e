/**
 * The slash commands an editor can offer in its prompt box (ACP
 * `available_commands_update`): the user's custom commands and workflows and
 * cairn's prompt commands such as /newrule. A prompt typed as `/name args`
 * starts a task that runs the command, as `cairn run "/name args"` does.
 */
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { builtinPromptCommands } from "../extensions/builtin-commands.js";
import { loadCustomCommands } from "../extensions/custom-commands.js";
import type { CommandFolders } from "../extensions/custom-commands.js";

export async function availableCommands(folders: CommandFolders): Promise<AvailableCommand[]> {
  const custom = await loadCustomCommands(folders).catch(() => []);
  return [...builtinPromptCommands, ...custom].map((command) => ({
    name: command.name,
    description: command.description,
    ...(command.argumentHint === undefined ? {} : { input: { hint: command.argumentHint } }),
  }));
}
