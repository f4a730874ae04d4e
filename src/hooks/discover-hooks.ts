/**
 * Finds every configured hook: cairn's settings (Claude Code's JSON form or
 * the old `{"TaskStart": "cmd"}` one), Claude Code's own settings files (as
 * the settings resolver loaded them), and executables named after an event in `.cairn/hooks/`,
 * `.clinerules/hooks/` (Cline's layout) and the user's config folder.
 */
import { constants } from "node:fs";
import { access, readdir, readFile, stat } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { eventsNamed, acceptedEventNames } from "./events.js";
import type { HookDefinition, HookDialect, HookOrigin, HookScope } from "./hook-definition.js";
import { defaultHookTimeoutMs } from "./hook-definition.js";
import { commandFingerprint, executableFingerprint } from "./hook-fingerprint.js";

/** One event's value in settings: a command (old form) or Claude Code's matcher groups. */
export type HookSettingValue = string | ReadonlyArray<{ matcher?: string | undefined; hooks: ReadonlyArray<Record<string, unknown>> }>;

export interface DiscoverHooksOptions {
  workspace: string;
  userConfigDir: string;
  /** The resolved `hooks` setting, with where each event's entry came from. */
  settings: Record<string, HookSettingValue>;
  settingScope: (event: string) => { scope: HookScope; file: string };
  /**
   * Claude Code's settings files' hooks as the settings resolver read and checked
   * them (the user's, the managed file's, the project's). Without it, the project's
   * `.claude/settings.json` and `.claude/settings.local.json` are read here.
   */
  claudeSettings?: ReadonlyArray<{ file: string; scope: HookScope; hooks: Record<string, unknown> }>;
  /** Enabled plugins' hooks (src/plugins), `${CLAUDE_PLUGIN_ROOT}` already expanded: trusted at install, so the user's. */
  plugins?: ReadonlyArray<{ plugin: string; root: string; file: string; hooks: Record<string, unknown> }>;
}

export interface DiscoveredHooks {
  hooks: HookDefinition[];
  warnings: string[];
}

const scriptRunners: Readonly<Record<string, string>> = { ".js": "node", ".mjs": "node", ".cjs": "node" };
const plainExtensions = new Set(["", ".sh", ".bash", ".py", ".rb", ".pl", ".js", ".mjs", ".cjs"]);

export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A hook as configured, before its fingerprint is taken. */
type ConfiguredHook = Omit<HookDefinition, "fingerprint" | "scripts">;

function fromSettingValue(options: { name: string; value: unknown; scope: HookScope; origin: HookOrigin; warnings: string[] }): ConfiguredHook[] {
  const { name, value, scope, origin, warnings } = options;
  const events = eventsNamed(name);
  const where = `${origin.file}: hooks.${name}`;
  if (events.length === 0) {
    warnings.push(`${where}: unknown hook event (known: ${acceptedEventNames().join(", ")}); ignored`);
    return [];
  }
  const definitions: ConfiguredHook[] = [];
  const add = (command: string, matcher: string | undefined, timeoutSeconds: unknown, dialect: HookDialect): void => {
    const timeoutMs = typeof timeoutSeconds === "number" && timeoutSeconds > 0 ? timeoutSeconds * 1000 : defaultHookTimeoutMs;
    for (const event of events) {
      definitions.push({ event, configuredAs: name, ...(matcher === undefined ? {} : { matcher }), command, timeoutMs, scope, origin, dialect });
    }
  };
  if (typeof value === "string") {
    // The old `{"TaskStart": "cmd"}` form is cairn's own: its hooks get cairn's tool names.
    if (value.trim() !== "") add(value, undefined, undefined, "cairn");
    return definitions;
  }
  if (!Array.isArray(value)) {
    warnings.push(`${where}: expected a command or a list of {matcher, hooks}; ignored`);
    return definitions;
  }
  for (const group of value as unknown[]) {
    if (typeof group !== "object" || group === null || !Array.isArray((group as Record<string, unknown>)["hooks"])) {
      warnings.push(`${where}: an entry without a "hooks" list was ignored`);
      continue;
    }
    const record = group as Record<string, unknown>;
    const matcher = typeof record["matcher"] === "string" ? record["matcher"] : undefined;
    for (const hook of record["hooks"] as unknown[]) {
      const entry = (typeof hook === "object" && hook !== null ? hook : {}) as Record<string, unknown>;
      const type = entry["type"] ?? "command";
      if (type !== "command" || typeof entry["command"] !== "string" || entry["command"].trim() === "") {
        warnings.push(`${where}: only {"type": "command", "command": ...} hooks run in cairn; a "${typeof type === "string" ? type : JSON.stringify(type)}" hook was ignored`);
        continue;
      }
      add(entry["command"], matcher, entry["timeout"], "claude-code");
    }
  }
  return definitions;
}

async function readClaudeSettings(file: string, scope: HookScope, warnings: string[]): Promise<ConfiguredHook[]> {
  let raw: string;
  try {
    raw = await readFile(file, "utf8");
  } catch {
    return [];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    warnings.push(`${file}: not valid JSON; its hooks were ignored`);
    return [];
  }
  const hooks = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>)["hooks"] : undefined;
  if (hooks === undefined) return [];
  if (typeof hooks !== "object" || hooks === null) {
    warnings.push(`${file}: "hooks" is not an object; ignored`);
    return [];
  }
  return Object.entries(hooks).flatMap(([name, value]) => fromSettingValue({ name, value, scope, origin: { kind: "claude-settings", file }, warnings }));
}

/**
 * A hooks folder's executables. Cline's (`.clinerules/hooks/`) are told Cline's fields and read as Cline
 * reads them; its PostToolUse runs after a failed call too (with `success: false`), as in Cline.
 */
async function readHookFolder(folder: string, scope: HookScope, warnings: string[], dialect: "cairn" | "cline" = "cairn"): Promise<HookDefinition[]> {
  let names: string[];
  try {
    names = (await readdir(folder)).sort();
  } catch {
    return [];
  }
  const definitions: HookDefinition[] = [];
  for (const name of names) {
    const extension = extname(name);
    if (!plainExtensions.has(extension)) continue;
    const named = eventsNamed(basename(name, extension));
    if (named.length === 0) continue;
    const events = dialect === "cline" && named.includes("PostToolUse") ? [...named, "PostToolUseFailure" as const] : named;
    const file = join(folder, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    const runner = scriptRunners[extension];
    let command: string;
    if (runner === "node") {
      command = `${shellQuote(process.execPath)} ${shellQuote(file)}`;
    } else {
      const executable = await access(file, constants.X_OK).then(
        () => true,
        () => false,
      );
      if (!executable) {
        warnings.push(`${file} is not executable (chmod +x it to run it as a hook); ignored`);
        continue;
      }
      command = shellQuote(file);
    }
    const fingerprint = await executableFingerprint(file);
    for (const event of events) {
      definitions.push({
        event,
        configuredAs: basename(name, extension),
        command,
        timeoutMs: defaultHookTimeoutMs,
        scope,
        origin: { kind: "executable", file },
        dialect,
        fingerprint,
      });
    }
  }
  return definitions;
}

/** Takes the fingerprint of a configured command, with the scripts it runs. */
async function withFingerprint(hook: ConfiguredHook, workspace: string): Promise<HookDefinition> {
  const { fingerprint, scripts } = await commandFingerprint({ configuredAs: hook.configuredAs, matcher: hook.matcher, command: hook.command, timeoutMs: hook.timeoutMs, workspace });
  return { ...hook, fingerprint, ...(scripts.length > 0 ? { scripts } : {}) };
}

export async function discoverHooks(options: DiscoverHooksOptions): Promise<DiscoveredHooks> {
  const warnings: string[] = [];
  const configured: ConfiguredHook[] = [];
  for (const [name, value] of Object.entries(options.settings)) {
    const { scope, file } = options.settingScope(name);
    configured.push(...fromSettingValue({ name, value, scope, origin: { kind: "settings", file }, warnings }));
  }
  if (options.claudeSettings !== undefined) {
    for (const { file, scope, hooks: entries } of options.claudeSettings) {
      configured.push(...Object.entries(entries).flatMap(([name, value]) => fromSettingValue({ name, value, scope, origin: { kind: "claude-settings", file }, warnings })));
    }
  } else {
    const claude = join(options.workspace, ".claude");
    configured.push(...(await readClaudeSettings(join(claude, "settings.json"), "project", warnings)));
    configured.push(...(await readClaudeSettings(join(claude, "settings.local.json"), "project", warnings)));
  }
  for (const { plugin, root, file, hooks: entries } of options.plugins ?? []) {
    const fromPlugin = Object.entries(entries).flatMap(([name, value]) => fromSettingValue({ name, value, scope: "user", origin: { kind: "plugin", file, plugin }, warnings }));
    configured.push(...fromPlugin.map((hook) => ({ ...hook, env: { CLAUDE_PLUGIN_ROOT: root }, visible: [root] })));
  }
  const hooks = await Promise.all(configured.map((hook) => withFingerprint(hook, options.workspace)));
  hooks.push(...(await readHookFolder(join(options.workspace, ".cairn", "hooks"), "project", warnings)));
  hooks.push(...(await readHookFolder(join(options.workspace, ".clinerules", "hooks"), "project", warnings, "cline")));
  hooks.push(...(await readHookFolder(join(options.userConfigDir, "hooks"), "user", warnings)));
  return { hooks, warnings };
}
