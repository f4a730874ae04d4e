/**
 * Every settings file a cairn or Claude Code user has, in Claude Code's order
 * of precedence: the managed file (an administrator's), the project's
 * `.claude/settings.local.json`, `.claude/settings.json` and
 * `.cairn/config.json`, then the user's `~/.claude/settings.json` and cairn's
 * user config. Each is read into one shape (cairn's keys, plus what only
 * Claude Code's files say), so the resolver treats them alike.
 */
import { access } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { ConfigFile } from "./config-file.js";
import type { HookSetting, SettingsFileKind, SettingsScope, StatusLineSetting } from "./types.js";

export interface SettingsFilePlace {
  kind: SettingsFileKind;
  scope: SettingsScope;
  path: string;
}

/** One settings file, read and checked. */
export interface SettingsFile extends SettingsFilePlace {
  /** cairn's keys (a Claude Code file's translated into them: rules, `sandbox.enabled: false` as `sandbox: "off"`). */
  config: ConfigFile;
  /** A Claude Code file's `model` (aliases resolved): honoured only with the anthropic provider. */
  claudeModel?: string | undefined;
  /** `permissions.defaultMode`. */
  defaultMode?: string | undefined;
  /** `permissions.disableBypassPermissionsMode: "disable"`. */
  disableBypass: boolean;
  statusLine?: StatusLineSetting | undefined;
  /** Claude Code's `sandbox.excludedCommands`. */
  unsandboxedCommands: string[];
  /** `env`: variables for commands. */
  environment: Record<string, string>;
  /** A Claude Code file's `hooks` (cairn's own files keep theirs in `config.hooks`). */
  claudeHooks?: Record<string, HookSetting> | undefined;
  unsupported: Array<{ key: string; why: string }>;
  warnings: string[];
}

/** Claude Code's user folder: `$CLAUDE_CONFIG_DIR` (as Claude Code reads it), else `~/.claude`. */
export function defaultClaudeUserDir(env: NodeJS.ProcessEnv): string {
  const configured = env["CLAUDE_CONFIG_DIR"];
  return configured !== undefined && configured.startsWith("/") ? configured : join(homedir(), ".claude");
}

/**
 * Claude Code's state file, where `claude mcp add` keeps the user's MCP servers
 * (`mcpServers`) and each project's own (`projects[<folder>].mcpServers`):
 * `$CLAUDE_CONFIG_DIR/.claude.json` when that is set, else `~/.claude.json`.
 */
export function defaultClaudeStateFile(env: NodeJS.ProcessEnv): string {
  const configured = env["CLAUDE_CONFIG_DIR"];
  return join(configured !== undefined && configured.startsWith("/") ? configured : homedir(), ".claude.json");
}

/** Claude Code's managed settings on this system (Linux; macOS keeps it under /Library). */
export function defaultManagedSettingsPath(): string {
  return process.platform === "darwin" ? "/Library/Application Support/ClaudeCode/managed-settings.json" : "/etc/claude-code/managed-settings.json";
}

export function settingsFilePlaces(options: { cwd: string; userConfigFile: string; projectConfigFile: string; claudeUserDir: string; managedPath: string }): SettingsFilePlace[] {
  return [
    { kind: "managed", scope: "managed", path: options.managedPath },
    { kind: "claude-local", scope: "project", path: join(options.cwd, ".claude", "settings.local.json") },
    { kind: "claude-project", scope: "project", path: join(options.cwd, ".claude", "settings.json") },
    { kind: "cairn-project", scope: "project", path: options.projectConfigFile },
    { kind: "claude-user", scope: "user", path: join(options.claudeUserDir, "settings.json") },
    { kind: "cairn-user", scope: "user", path: options.userConfigFile },
  ];
}

export function isClaudeFile(kind: SettingsFileKind): boolean {
  return kind !== "cairn-project" && kind !== "cairn-user";
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== "ENOENT",
  );
}

/**
 * Reads the files that exist. A broken file (not JSON, a wrong type) is a
 * `ConfigError` naming the file and the key. The schemas (zod, the largest
 * module cairn loads) are imported only when some file exists (issue 18).
 */
export async function loadSettingsFiles(places: readonly SettingsFilePlace[]): Promise<Array<SettingsFile | undefined>> {
  const present = await Promise.all(places.map((place) => exists(place.path)));
  if (!present.some(Boolean)) return places.map(() => undefined);
  const [{ readConfigFile }, { readClaudeSettingsFile }, { fromCairnConfig }] = await Promise.all([import("./config-file.js"), import("./claude-settings.js"), import("./cairn-settings.js")]);
  return Promise.all(
    places.map(async (place, index) => {
      if (present[index] !== true) return undefined;
      if (isClaudeFile(place.kind)) return readClaudeSettingsFile(place);
      const loaded = await readConfigFile(place.path);
      return loaded === undefined ? undefined : fromCairnConfig(place, loaded.config, loaded.warnings);
    }),
  );
}
