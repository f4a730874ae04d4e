/**
 * The MCP servers in Claude Code's state file (`~/.claude.json`, written by
 * `claude mcp add`): the user's (`mcpServers`, "user" scope) and each
 * project's own (`projects[<folder>].mcpServers`, "local" scope). Both are
 * the user's own choices, so they need no trust. The file is Claude Code's,
 * not a configuration file the user edits: a server cairn cannot use, or a
 * file that cannot be read, is a warning, never a reason to stop.
 */
import { realpath } from "node:fs/promises";
import { dirname } from "node:path";
import { McpConfigError, parseMcpConfig, readMcpConfigFile, type McpServerConfig } from "./config.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Each server on its own, so one Claude Code cairn cannot run does not hide the others. */
function serversOf(entries: unknown, options: { source: string; baseDirectory: string; warnings: string[] }): McpServerConfig[] {
  if (!isRecord(entries)) return [];
  const servers: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(entries)) {
    try {
      const parsed = parseMcpConfig({ mcpServers: { [name]: entry } }, { file: options.source, baseDirectory: options.baseDirectory });
      options.warnings.push(...parsed.warnings);
      servers.push(...parsed.servers);
    } catch (error) {
      if (!(error instanceof McpConfigError)) throw error;
      options.warnings.push(`${error.message.replace(/^Invalid MCP configuration:\n\s*/, "")} (ignored)`);
    }
  }
  return servers;
}

export interface ClaudeStateServers {
  /** `mcpServers`: the user's servers for every project. */
  user: McpServerConfig[];
  /** `projects[<workspace>].mcpServers`: the user's servers for this project only. */
  local: McpServerConfig[];
}

export async function readClaudeStateServers(options: { file: string; workspace: string; warnings: string[] }): Promise<ClaudeStateServers> {
  const { file, warnings } = options;
  let raw: unknown;
  try {
    raw = await readMcpConfigFile(file);
  } catch (error) {
    if (!(error instanceof McpConfigError)) throw error;
    warnings.push(`${error.message.replace(/; fix or remove the file$/, "")}; its MCP servers were not started`);
    return { user: [], local: [] };
  }
  if (!isRecord(raw)) return { user: [], local: [] };
  const baseDirectory = dirname(file);
  const user = serversOf(raw["mcpServers"], { source: file, baseDirectory, warnings });
  const projects = raw["projects"];
  if (!isRecord(projects)) return { user, local: [] };
  // Claude Code keys a project by its folder as it was opened; a link to it names the same project.
  const real = await realpath(options.workspace).catch(() => options.workspace);
  const key = [options.workspace, real].find((candidate) => isRecord(projects[candidate]));
  const project = key === undefined ? undefined : projects[key];
  const local = isRecord(project) ? serversOf(project["mcpServers"], { source: `${file} (projects["${key ?? ""}"])`, baseDirectory: options.workspace, warnings }) : [];
  return { user, local };
}
