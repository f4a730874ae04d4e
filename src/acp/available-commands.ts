/**
 * The slash commands an editor can offer in its prompt box (ACP
 * `available_commands_update`): the user's custom commands and workflows and
 * cairn's prompt commands such as /newrule. A prompt typed as `/name args`
 * starts a task that runs the command, as `cairn run "/name args"` does.
 * The MCP servers' prompts join them once a task started the servers.
 */
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { builtinPromptCommands } from "../extensions/builtin-commands.js";
import { loadCustomCommands } from "../extensions/custom-commands.js";
import type { CommandFolders } from "../extensions/custom-commands.js";
import type { McpPromptInfo } from "../mcp/user-references.js";
import { promptCommandDescription, promptCommandName, promptUsage } from "../mcp/user-references.js";

export async function availableCommands(folders: CommandFolders): Promise<AvailableCommand[]> {
  const custom = await loadCustomCommands(folders).catch(() => []);
  return [...builtinPromptCommands, ...custom].map((command) => ({
    name: command.name,
    description: command.description,
    ...(command.argumentHint === undefined ? {} : { input: { hint: command.argumentHint } }),
  }));
}

/** The MCP servers' prompts as commands (`/mcp__server__prompt args`, expanded when the task gets the prompt). */
export function mcpPromptCommands(prompts: McpPromptInfo[]): AvailableCommand[] {
  return prompts.map((prompt) => {
    const hint = promptUsage(prompt);
    return { name: promptCommandName(prompt.server, prompt.name), description: promptCommandDescription(prompt), ...(hint === "" ? {} : { input: { hint } }) };
  });
}
