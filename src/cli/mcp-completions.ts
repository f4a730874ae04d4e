/**
 * The MCP servers' prompts and resources in the terminal UI's completion: each
 * prompt is a slash command (`/mcp__server__prompt`, sent as typed so the task
 * expands it), each resource completes an `@server:uri` mention. Read from the
 * servers the UI keeps (src/session/kept-mcp-servers.ts) at each use, so a
 * list-changed notification shows at the next frame; empty before a task
 * started any server.
 */
import type { McpReferenceSource } from "../mcp/user-references.js";
import { promptCommandDescription, promptCommandName, promptUsage } from "../mcp/user-references.js";
import type { SlashCommand } from "../ui/tui/slash-commands.js";

export function mcpPromptCommands(source: () => McpReferenceSource | undefined): () => SlashCommand[] {
  return () =>
    (source()?.listPrompts() ?? []).map((prompt) => {
      const name = promptCommandName(prompt.server, prompt.name);
      const usage = promptUsage(prompt);
      return {
        name,
        description: promptCommandDescription(prompt),
        ...(usage === "" ? {} : { usage }),
        run: ({ args, send }) => send(args === "" ? `/${name}` : `/${name} ${args}`),
      };
    });
}

/** The `server:uri` mentions of the servers' resources that start with `partial`. */
export function completeResourceMention(partial: string, source: McpReferenceSource | undefined): string[] {
  return (source?.listResources() ?? [])
    .map((resource) => `${resource.server}:${resource.uri}`)
    .filter((mention) => mention.startsWith(partial))
    .sort();
}
