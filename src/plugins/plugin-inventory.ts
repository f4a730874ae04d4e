/**
 * What a plugin brings, as the user is shown it before trusting it: its
 * commands, agents, skills, hooks with the commands they run, and MCP servers
 * with the programs they start (or the address they reach).
 */
import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { pluginCommands } from "../extensions/custom-commands.js";
import { pluginHooks, pluginMcpServers } from "./plugin-contributions.js";
import type { PluginLayout } from "./plugin-manifest.js";

export interface PluginInventory {
  commands: string[];
  agents: string[];
  skills: string[];
  hooks: string[];
  mcpServers: string[];
}

async function markdownNames(path: string): Promise<string[]> {
  if (path.endsWith(".md")) return [basename(path, ".md")];
  const names = await readdir(path).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith(".md")).map((name) => basename(name, ".md"));
}

async function skillNames(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const names: string[] = [];
  for (const entry of entries) if (entry.isDirectory() && (await stat(join(folder, entry.name, "SKILL.md")).catch(() => undefined)) !== undefined) names.push(entry.name);
  return names;
}

function hookLines(hooks: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups as Array<Record<string, unknown>>) {
      const matcher = typeof group["matcher"] === "string" && group["matcher"] !== "" ? ` [${group["matcher"]}]` : "";
      for (const hook of Array.isArray(group["hooks"]) ? (group["hooks"] as Array<Record<string, unknown>>) : []) {
        lines.push(`${event}${matcher}: ${typeof hook["command"] === "string" ? hook["command"] : `(a ${String(hook["type"])} hook, not run by cairn)`}`);
      }
    }
  }
  return lines;
}

export async function pluginInventory(layout: PluginLayout): Promise<PluginInventory> {
  const commands = (await pluginCommands({ plugin: layout.name, paths: layout.commandPaths })).map((command) => `/${command.name}`);
  const agents = (await Promise.all(layout.agentPaths.map(markdownNames))).flat().map((name) => `${layout.name}:${name}`);
  const skills = (await Promise.all(layout.skillFolders.map(skillNames))).flat().map((name) => `${layout.name}:${name}`);
  const hooks = (await pluginHooks(layout)).flatMap((source) => hookLines(source.hooks));
  const mcpServers = (await pluginMcpServers(layout)).servers.map((server) =>
    server.transport.type === "stdio" ? `${server.name}: ${[server.transport.command, ...server.transport.args].join(" ")}` : `${server.name}: ${server.transport.url}`,
  );
  // Shown as written in the plugin, so two versions (in two folders) compare line by line.
  const portable = (lines: string[]): string[] => lines.map((line) => line.replaceAll(layout.root, "${CLAUDE_PLUGIN_ROOT}"));
  return { commands, agents, skills, hooks: portable(hooks), mcpServers: portable(mcpServers) };
}

const labels: Array<[keyof PluginInventory, string]> = [
  ["commands", "commands"],
  ["agents", "agents"],
  ["skills", "skills"],
  ["hooks", "hooks (run on your machine, in the sandbox)"],
  ["mcpServers", "MCP servers (started on your machine, in the sandbox)"],
];

/** The inventory as lines for the trust question. */
export function describeInventory(inventory: PluginInventory): string[] {
  const lines: string[] = [];
  for (const [key, label] of labels) {
    if (inventory[key].length === 0) continue;
    lines.push(`  ${label}:`, ...inventory[key].map((item) => `    ${item}`));
  }
  return lines.length === 0 ? ["  nothing cairn runs (no commands, agents, skills, hooks or MCP servers)"] : lines;
}

/** What an update adds and takes away, part by part; unchanged parts are left out. */
export function describeChanges(before: PluginInventory, after: PluginInventory): string[] {
  const lines: string[] = [];
  for (const [key, label] of labels) {
    const added = after[key].filter((item) => !before[key].includes(item));
    const removed = before[key].filter((item) => !after[key].includes(item));
    if (added.length === 0 && removed.length === 0) continue;
    lines.push(`  ${label}:`, ...added.map((item) => `    + ${item}`), ...removed.map((item) => `    - ${item}`));
  }
  return lines;
}
