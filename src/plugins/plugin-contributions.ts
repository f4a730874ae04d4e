/**
 * What the enabled plugins add to a session: their commands (`/plugin:name`),
 * agents, skills, hooks (with `${CLAUDE_PLUGIN_ROOT}` expanded) and MCP
 * servers (named `plugin:<plugin>:<server>`, as Claude Code names them). A
 * plugin runs only as installed and trusted: its pinned copy in the data
 * folder, never its marketplace's newer version until trusted again.
 */
import { readFile, stat } from "node:fs/promises";
import { parseMcpConfig } from "../mcp/config.js";
import type { McpServerConfig } from "../mcp/config.js";
import { readClaudePluginSettings } from "./claude-plugin-settings.js";
import type { ClaudeSettingsPlaces } from "./claude-plugin-settings.js";
import { expandPluginRoot, readPluginLayout } from "./plugin-manifest.js";
import type { PluginLayout } from "./plugin-manifest.js";
import { pluginKey, readPluginState } from "./plugin-state.js";

export interface PluginHookSource {
  plugin: string;
  root: string;
  file: string;
  /** Claude Code's `hooks` object, `${CLAUDE_PLUGIN_ROOT}` expanded. */
  hooks: Record<string, unknown>;
}

export interface PluginContributions {
  plugins: PluginLayout[];
  commands: Array<{ plugin: string; paths: string[] }>;
  agents: Array<{ plugin: string; paths: string[] }>;
  skills: Array<{ plugin: string; folders: string[] }>;
  hooks: PluginHookSource[];
  mcpServers: McpServerConfig[];
  /** Problems and plugins that do not run, for the user. */
  notices: string[];
}

export interface PluginPlaces extends ClaudeSettingsPlaces {
  dataDir: string;
}

export const noPlugins: PluginContributions = { plugins: [], commands: [], agents: [], skills: [], hooks: [], mcpServers: [], notices: [] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, "utf8")) as unknown;
}

/** A plugin's hooks: each hooks file's `hooks` object (or the file itself), and plugin.json's inline ones. */
export async function pluginHooks(layout: PluginLayout): Promise<PluginHookSource[]> {
  const sources: PluginHookSource[] = [];
  for (const file of layout.hookFiles) {
    const raw = await readJson(file);
    const hooks = isRecord(raw) && isRecord(raw["hooks"]) ? raw["hooks"] : raw;
    if (isRecord(hooks)) sources.push({ plugin: layout.name, root: layout.root, file, hooks: expandPluginRoot(hooks, layout.root) });
  }
  if (layout.inlineHooks !== undefined) sources.push({ plugin: layout.name, root: layout.root, file: `${layout.root}/.claude-plugin/plugin.json`, hooks: expandPluginRoot(layout.inlineHooks, layout.root) });
  return sources;
}

/** A plugin's MCP servers, named `plugin:<plugin>:<server>`; the plugin's folder stays readable for them in the sandbox. */
export async function pluginMcpServers(layout: PluginLayout): Promise<{ servers: McpServerConfig[]; warnings: string[] }> {
  const servers: McpServerConfig[] = [];
  const warnings: string[] = [];
  const add = (entries: unknown, file: string): void => {
    const map = isRecord(entries) && isRecord(entries["mcpServers"]) ? entries["mcpServers"] : entries;
    if (!isRecord(map)) return;
    const named = Object.fromEntries(Object.entries(expandPluginRoot(map, layout.root)).map(([name, entry]) => [`plugin:${layout.name}:${name}`, entry]));
    const parsed = parseMcpConfig({ mcpServers: named }, { file, baseDirectory: layout.root });
    warnings.push(...parsed.warnings);
    for (const server of parsed.servers) {
      const transport = server.transport.type === "stdio" ? { ...server.transport, env: { CLAUDE_PLUGIN_ROOT: layout.root, ...server.transport.env } } : server.transport;
      servers.push({ ...server, transport, visible: [layout.root] });
    }
  };
  for (const file of layout.mcpFiles) add(await readJson(file), file);
  if (layout.inlineMcpServers !== undefined) add(layout.inlineMcpServers, `${layout.root}/.claude-plugin/plugin.json`);
  return { servers, warnings };
}

/** Every part of one plugin's folder. */
export async function pluginContributionsOf(layouts: readonly PluginLayout[]): Promise<PluginContributions> {
  const result: PluginContributions = { plugins: [...layouts], commands: [], agents: [], skills: [], hooks: [], mcpServers: [], notices: [] };
  for (const layout of layouts) {
    result.commands.push({ plugin: layout.name, paths: layout.commandPaths });
    result.agents.push({ plugin: layout.name, paths: layout.agentPaths });
    result.skills.push({ plugin: layout.name, folders: layout.skillFolders });
    try {
      result.hooks.push(...(await pluginHooks(layout)));
      const mcp = await pluginMcpServers(layout);
      result.mcpServers.push(...mcp.servers);
      result.notices.push(...mcp.warnings);
    } catch (error) {
      result.notices.push(`plugin ${layout.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return result;
}

/** The installed plugins that run here: enabled in cairn, not turned off by Claude Code's `enabledPlugins`, their pinned copy present. */
export async function loadEnabledPlugins(places: PluginPlaces): Promise<PluginContributions> {
  const state = await readPluginState(places.dataDir);
  const claude = await readClaudePluginSettings(places);
  const layouts: PluginLayout[] = [];
  const notices: string[] = [];
  for (const [key, plugin] of Object.entries(state.plugins)) {
    const claudeSays = claude.enabled.get(key);
    if (!plugin.enabled || claudeSays?.on === false) continue;
    if ((await stat(plugin.pinned.path).catch(() => undefined)) === undefined) {
      notices.push(`plugin ${key} did not load: its trusted copy (${plugin.pinned.path}) is gone; run \`cairn plugin update ${key}\` to review and trust it again`);
      continue;
    }
    try {
      layouts.push(await readPluginLayout(plugin.pinned.path));
    } catch (error) {
      notices.push(`plugin ${key} did not load: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const [key, { on, file }] of claude.enabled) {
    if (on && state.plugins[key] === undefined) notices.push(`${file} enables the plugin ${key}, which is not installed in cairn: \`cairn plugin install ${key}\` shows what it brings and asks`);
  }
  const contributions = await pluginContributionsOf(layouts);
  return { ...contributions, notices: [...notices, ...contributions.notices] };
}

const cache = new Map<string, Promise<PluginContributions>>();

/** The enabled plugins, read once per process and place (cleared by `forgetLoadedPlugins` after a change). */
export function enabledPlugins(places: PluginPlaces): Promise<PluginContributions> {
  const key = JSON.stringify([places.dataDir, places.claudeUserDir, places.cwd, places.projectTrusted]);
  let loaded = cache.get(key);
  if (loaded === undefined) {
    loaded = loadEnabledPlugins(places).catch((error: unknown) => ({ ...noPlugins, notices: [`plugins did not load: ${error instanceof Error ? error.message : String(error)}`] }));
    cache.set(key, loaded);
  }
  return loaded;
}

export function forgetLoadedPlugins(): void {
  cache.clear();
}

/** The places of a session's settings. */
export function pluginPlaces(settings: { dataDir: string; claudeUserDir: string; cwd: string; trust: { trusted: boolean } }): PluginPlaces {
  return { dataDir: settings.dataDir, claudeUserDir: settings.claudeUserDir, cwd: settings.cwd, projectTrusted: settings.trust.trusted };
}

export { pluginKey };
