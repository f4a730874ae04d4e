/**
 * A plugin in Claude Code's format, read unchanged: a folder with
 * `.claude-plugin/plugin.json` (name, version, description, author, and
 * optional paths for `commands`, `agents`, `skills`, `hooks`, `mcpServers`,
 * which add to the default places) and any of `commands/`, `agents/`,
 * `skills/`, `hooks/hooks.json` and `.mcp.json`.
 */
import { readFile, stat } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";

export interface PluginManifest {
  name: string;
  version?: string;
  description?: string;
  author?: string;
}

/** Where a plugin's parts are: every path absolute, inside the plugin's folder. */
export interface PluginLayout extends PluginManifest {
  root: string;
  /** Folders of Markdown commands, and single command files. */
  commandPaths: string[];
  agentPaths: string[];
  /** Folders whose sub-folders hold a `SKILL.md`. */
  skillFolders: string[];
  /** Files in hooks.json's form (`{"hooks": {...}}`), and hooks given inline in plugin.json. */
  hookFiles: string[];
  inlineHooks?: Record<string, unknown>;
  /** Files in `.mcp.json`'s form, and servers given inline in plugin.json. */
  mcpFiles: string[];
  inlineMcpServers?: Record<string, unknown>;
}

export class PluginManifestError extends Error {}

export const manifestPath = (root: string): string => join(root, ".claude-plugin", "plugin.json");

const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}

/** A path plugin.json names, which must stay inside the plugin (`./x`, as Claude Code asks). */
function inside(root: string, path: string, field: string): string {
  const absolute = isAbsolute(path) ? path : resolve(root, path);
  if (absolute !== root && !absolute.startsWith(`${root}/`)) throw new PluginManifestError(`${manifestPath(root)}: "${field}" path ${path} leaves the plugin's folder`);
  return absolute;
}

function pathList(root: string, value: unknown, field: string): string[] {
  if (value === undefined) return [];
  const list = typeof value === "string" ? [value] : Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;
  if (list === undefined) throw new PluginManifestError(`${manifestPath(root)}: "${field}" must be a path or a list of paths`);
  return list.map((path) => inside(root, path, field));
}

async function withDefault(root: string, folder: string, extra: string[]): Promise<string[]> {
  const path = join(root, folder);
  return [...((await exists(path)) && !extra.includes(path) ? [path] : []), ...extra];
}

/** Reads a plugin's manifest and where its parts are; throws `PluginManifestError` naming the file. */
export async function readPluginLayout(folder: string): Promise<PluginLayout> {
  const root = resolve(folder);
  const file = manifestPath(root);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    throw new PluginManifestError(missing ? `${root} is not a plugin: it has no .claude-plugin/plugin.json` : `${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(raw)) throw new PluginManifestError(`${file} must hold a JSON object with at least "name"`);
  const name = text(raw["name"]);
  if (name === undefined || !namePattern.test(name)) throw new PluginManifestError(`${file}: "name" is required (letters, digits, ".", "_" and "-")`);
  const author = isRecord(raw["author"]) ? text(raw["author"]["name"]) : text(raw["author"]);
  const version = text(raw["version"]);
  const description = text(raw["description"]);
  const hooks = raw["hooks"];
  const mcp = raw["mcpServers"];
  const defaultHooks = join(root, "hooks", "hooks.json");
  const defaultMcp = join(root, ".mcp.json");
  const hookFiles = isRecord(hooks) ? [] : pathList(root, hooks, "hooks");
  const mcpFiles = isRecord(mcp) ? [] : pathList(root, mcp, "mcpServers");
  return {
    name,
    ...(version === undefined ? {} : { version }),
    ...(description === undefined ? {} : { description }),
    ...(author === undefined ? {} : { author }),
    root,
    commandPaths: await withDefault(root, "commands", pathList(root, raw["commands"], "commands")),
    agentPaths: await withDefault(root, "agents", pathList(root, raw["agents"], "agents")),
    skillFolders: await withDefault(root, "skills", pathList(root, raw["skills"], "skills")),
    hookFiles: [...((await exists(defaultHooks)) && !hookFiles.includes(defaultHooks) ? [defaultHooks] : []), ...hookFiles],
    ...(isRecord(hooks) ? { inlineHooks: isRecord(hooks["hooks"]) ? hooks["hooks"] : hooks } : {}),
    mcpFiles: [...((await exists(defaultMcp)) && !mcpFiles.includes(defaultMcp) ? [defaultMcp] : []), ...mcpFiles],
    ...(isRecord(mcp) ? { inlineMcpServers: isRecord(mcp["mcpServers"]) ? mcp["mcpServers"] : mcp } : {}),
  };
}

/** `${CLAUDE_PLUGIN_ROOT}` (and `$CLAUDE_PLUGIN_ROOT`) in every string of a JSON value. */
export function expandPluginRoot<T>(value: T, root: string): T {
  if (typeof value === "string") return value.replaceAll("${CLAUDE_PLUGIN_ROOT}", root).replace(/\$CLAUDE_PLUGIN_ROOT(?![A-Za-z0-9_])/g, root) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => expandPluginRoot(item, root)) as T;
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandPluginRoot(item, root)])) as T;
  return value;
}
