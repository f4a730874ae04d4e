/**
 * Settings from every place, in order of precedence: Claude Code's managed
 * file > flags > environment > selected profile > the project's
 * `.claude/settings.local.json` > `.claude/settings.json` > `.cairn/config.json`
 * > the user's `~/.claude/settings.json` > cairn's user config > defaults.
 * Rules from every file count at once; a project's files only narrow until
 * the folder is trusted (src/config/project-gate.ts).
 */
import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { ConfigError } from "./errors.js";
import { defaultsLayer } from "./defaults-layer.js";
import { environmentLayer, flagLayer, profileLayer, settingsFileLayer, type Layer } from "./layers.js";
import { defaultUserConfigDir, projectConfigPath, userConfigPath } from "./paths.js";
import { isTrusted, trustFolder } from "./trust.js";
import { projectHookPlaces } from "./project-hook-places.js";
import { sandboxDefault, type BubblewrapProbe } from "./sandbox-default.js";
import { defaultClaudeStateFile, defaultClaudeUserDir, defaultManagedSettingsPath, loadSettingsFiles, settingsFilePlaces, type SettingsFile } from "./settings-files.js";
import { gateProjectFile } from "./project-gate.js";
import { resolveBudget, resolveModels, resolveSpendCap } from "./narrowing.js";
import type { TelemetrySetting } from "../telemetry/telemetry-config.js";
import { selectApiKey, selectProfile } from "./profile-and-key.js";
import { checkBubblewrap, startBubblewrapProbe } from "../security/sandbox.js";
import type { HookSetting, LspServerSetting, AutoApproveSettings, CliFlags, NotificationChannel, OnAskPolicy, ProviderName, ResolvedSettings, SettingSource, StatusLineSetting, ToolProtocol } from "./types.js";
import { autoApproveKeys } from "./types.js";
import { languageServers } from "./language-servers.js";
import { defaultModels as catalogueDefaultModels } from "../llm/models.js";
import { resolveCloudSettings } from "./cloud-settings.js";
import { defaultApprovalSettings } from "../tools/approval.js";
import { looksSecret } from "../security/child-environment.js";
import { collectPermissionRules } from "../security/permission-sources.js";
import { parseRule, RuleSyntaxError, type PermissionRule } from "../security/permission-rules.js";
import type { SandboxMode } from "../security/security-decision.js";
import { defaultContextSettings } from "../context/context-settings.js";
import type { ContextSettings } from "../context/context-settings.js";

export interface ResolveSettingsOptions {
  flags: CliFlags;
  env: NodeJS.ProcessEnv;
  /** The folder cairn was started in; `flags.cwd` is resolved against it. */
  cwd: string;
  /** Default `$XDG_CONFIG_HOME/cairn` or `~/.config/cairn`. */
  userConfigDir?: string;
  /** Claude Code's user folder; default `$CLAUDE_CONFIG_DIR` or `~/.claude`. */
  claudeUserDir?: string;
  /** Claude Code's state file; default `$CLAUDE_CONFIG_DIR/.claude.json` or `~/.claude.json`. */
  claudeStateFile?: string;
  /** Claude Code's managed settings file; default `/etc/claude-code/managed-settings.json`. */
  managedSettingsPath?: string;
  /** `--trust`: trust the workspace (remembered) before reading its config. */
  trust?: boolean;
  /** Whether bubblewrap works here (default: the real check), asked only for the opted-in default. */
  probeSandbox?: BubblewrapProbe;
}

/** The model used when none is configured: the catalogue's choice. */
export const defaultModels: Record<ProviderName, string> = catalogueDefaultModels;

export const defaultAutoApprove: AutoApproveSettings = defaultApprovalSettings;

async function workspaceFolder(options: ResolveSettingsOptions): Promise<string> {
  const folder = resolve(options.cwd, options.flags.cwd ?? ".");
  const info = await stat(folder).catch(() => undefined);
  if (info !== undefined && !info.isDirectory()) {
    throw new ConfigError(`--cwd ${folder} is a file, not a folder. Pass the folder to work in (e.g. --cwd ${dirname(folder)}).`);
  }
  if (!info?.isDirectory()) {
    throw new ConfigError(`--cwd ${folder}: no such folder. Pass an existing folder to work in.`);
  }
  return folder;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}

/** Reads every settings file and holds back what an untrusted project may not do. */
async function loadFiles(options: { cwd: string; userFile: string; claudeUserDir: string; managedPath: string; trusted: boolean; allowBaseUrl: string | undefined; warnings: string[] }) {
  const places = settingsFilePlaces({ cwd: options.cwd, userConfigFile: options.userFile, projectConfigFile: projectConfigPath(options.cwd), claudeUserDir: options.claudeUserDir, managedPath: options.managedPath });
  const loaded = await loadSettingsFiles(places);
  const files = loaded.filter((file): file is SettingsFile => file !== undefined);
  for (const file of files) options.warnings.push(...file.warnings);
  const blockedBaseUrls: Array<{ key: string; url: string }> = [];
  const heldBack: Array<{ key: string; file: string }> = [];
  for (const file of files) {
    if (file.scope !== "project") continue;
    const held = gateProjectFile({ file, trusted: options.trusted, userFile: options.userFile, warnings: options.warnings, allowBaseUrl: options.allowBaseUrl, blockedBaseUrls });
    heldBack.push(...held.map((key) => ({ key, file: file.path })));
  }
  const summaries = places.map((place, index) => {
    const file = loaded[index];
    return { ...place, present: file !== undefined, ...(file?.claudeHooks === undefined ? {} : { claudeHooks: file.claudeHooks }) };
  });
  return { files, summaries, blockedBaseUrls, heldBack };
}

function permissionRules(files: readonly SettingsFile[], flags: CliFlags): PermissionRule[] {
  try {
    return [...collectPermissionRules({ files: files.map((file) => ({ path: file.path, scope: file.scope, permissions: file.config.permissions })), flags }), ...excludedCommandRules(files)];
  } catch (error) {
    if (error instanceof RuleSyntaxError) throw new ConfigError(`${error.message} (in --allowed-tools, --ask-tools or --disallowed-tools).`);
    throw error;
  }
}

/** Claude Code's sandbox.excludedCommands: the commands they name run outside the sandbox, as Unsandboxed allow rules do. */
function excludedCommandRules(files: readonly SettingsFile[]): PermissionRule[] {
  return files.flatMap((file) =>
    file.unsandboxedCommands.map((command) => {
      const source = `${file.scope} ${file.path} (sandbox.excludedCommands)`;
      try {
        return parseRule(`Unsandboxed(${/[*:]/.test(command) ? command : `${command}:*`})`, "allow", source);
      } catch (error) {
        if (error instanceof RuleSyntaxError) throw new ConfigError(`${source}: "${command}" is not a command cairn can match: ${error.message}`);
        throw error;
      }
    }),
  );
}

/** Resolves every setting and records where each one came from. */
export async function resolveSettings(options: ResolveSettingsOptions): Promise<ResolvedSettings> {
  const warnings: string[] = [];
  const { flags, env } = options;
  const cwd = await workspaceFolder(options);
  const userConfigDir = options.userConfigDir ?? defaultUserConfigDir(env);
  const userFile = userConfigPath(userConfigDir);
  const projectFile = projectConfigPath(cwd);
  const claudeUserDir = options.claudeUserDir ?? defaultClaudeUserDir(env);

  if (options.trust === true || flags.trust === true) await trustFolder(cwd, userConfigDir);
  let trusted = false;
  try {
    trusted = await isTrusted(cwd, userConfigDir);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    warnings.push(`${error.message} Treating this folder as not trusted.`);
  }

  const { files, summaries, blockedBaseUrls, heldBack } = await loadFiles({
    cwd,
    userFile,
    claudeUserDir,
    managedPath: options.managedSettingsPath ?? defaultManagedSettingsPath(),
    trusted,
    allowBaseUrl: flags.allowBaseUrl,
    warnings,
  });
  const permissions = permissionRules(files, flags);
  const gated = [...new Set(heldBack.map((entry) => entry.key))];
  // The project's MCP servers (cairn's file and Claude Code's) start only once the folder is trusted (src/mcp/config.ts).
  for (const file of [".mcp.json", ".cairn/mcp.json"]) if (!trusted && (await exists(join(cwd, file)))) gated.push(file);
  if (!trusted) gated.push(...(await projectHookPlaces(cwd)));

  const defaults = defaultsLayer();
  const fileLayers = files.map((file) => ({ file, layer: settingsFileLayer(file) }));
  const managedLayers = fileLayers.filter((entry) => entry.file.scope === "managed").map((entry) => entry.layer);
  const ownAndProjectLayers = fileLayers.filter((entry) => entry.file.scope !== "managed").map((entry) => entry.layer);
  const flagsLayer = flagLayer(flags, options.cwd);
  const cairnUser = files.find((file) => file.kind === "cairn-user");
  const cairnUserLayers = fileLayers.filter((entry) => entry.file.kind === "cairn-user").map((entry) => entry.layer);
  const cairnProject = files.find((file) => file.kind === "cairn-project");

  const profile = selectProfile({ layers: [...managedLayers, flagsLayer, ...ownAndProjectLayers], user: cairnUser, project: cairnProject });
  const profileLayers = profile ? [profileLayer(profile.name, profile.profile, profile.file)] : [];

  const lowerLayers = [...profileLayers, ...ownAndProjectLayers, defaults];
  const provisional = environmentLayer({ env, cwd: options.cwd, provider: "mock" });
  const provider = pick<ProviderName>([...managedLayers, flagsLayer, provisional, ...lowerLayers], "provider").value;
  const environment = environmentLayer({ env, cwd: options.cwd, provider });
  defaults.values.set("model", defaultModels[provider]);
  const unsupportedSettings = files.flatMap((file) => file.unsupported.map((entry) => ({ ...entry, file: file.path })));
  // Claude Code's `model` names a Claude model: it counts with the anthropic provider only.
  for (const { file, layer } of fileLayers) {
    if (file.claudeModel === undefined) continue;
    if (provider === "anthropic") layer.values.set("model", file.claudeModel);
    else unsupportedSettings.push({ key: `model ${file.claudeModel}`, file: file.path, why: `Claude Code's model is used with the anthropic provider only (the provider is ${provider})` });
  }
  const layers = [...managedLayers, flagsLayer, environment, ...lowerLayers];

  const sources: Record<string, SettingSource> = {};
  const sourceDetails: Record<string, string> = {};
  const value = <T>(key: string): T => {
    const found = pick<T>(layers, key);
    sources[key] = found.layer.source;
    sourceDetails[key] = found.layer.detail(key);
    return found.value;
  };
  const optional = <T>(key: string): T | undefined => {
    const found = layers.find((layer) => layer.values.has(key));
    if (found === undefined) return undefined;
    return value<T>(key);
  };
  const record = <T>(prefix: string): Record<string, T> => {
    const entries: Record<string, T> = {};
    const keys = new Set(layers.flatMap((layer) => [...layer.values.keys()].filter((key) => key.startsWith(prefix))));
    for (const key of keys) entries[key.slice(prefix.length)] = value<T>(key);
    return entries;
  };

  const autoApprove = { ...defaultAutoApprove };
  for (const key of autoApproveKeys) autoApprove[key] = value<boolean>(`autoApprove.${key}`);
  const profileName = profile?.name;
  if (profile) {
    sources["profile"] = profile.selectedBy.source;
    sourceDetails["profile"] = profile.selectedBy.detail("profile");
  }
  value<ProviderName>("provider");
  const baseUrl = optional<string>("baseUrl");
  const askTimeoutMs = optional<number>("askTimeoutMs");
  if (askTimeoutMs === undefined) {
    sources["askTimeoutMs"] = "default";
    sourceDetails["askTimeoutMs"] = "built-in default (none while stdin is open)";
  }

  const bookkeeping = { sources, sourceDetails, warnings };
  const budget = resolveBudget({ ...bookkeeping, flags: flagsLayer, files: [...managedLayers, ...ownAndProjectLayers] });
  const spendCap = resolveSpendCap({ ...bookkeeping, flags: flagsLayer, files: [...managedLayers, ...ownAndProjectLayers] });
  // The sandbox is the boundary (issue 26): on wherever bubblewrap works unless someone turned it off.
  const chosenSandbox = value<SandboxMode>("sandbox");
  // The probe is needed only for the default; asked without blocking (usually already started by bin/cairn's launcher).
  if (options.probeSandbox === undefined && sources["sandbox"] === "default" && cairnUser?.config.sandboxOptIn !== false) await startBubblewrapProbe();
  const sandboxChoice = sandboxDefault({
    chosen: sources["sandbox"] === "default" ? undefined : { mode: chosenSandbox, detail: sourceDetails["sandbox"] ?? String(sources["sandbox"]) },
    legacyOptIn: cairnUser?.config.sandboxOptIn,
    userFile,
    probe: options.probeSandbox ?? checkBubblewrap,
  });
  const sandbox = sandboxChoice.mode;
  const sandboxNotice = sandboxChoice.notice;
  sourceDetails["sandbox"] = sandboxChoice.detail;
  if (sources["sandbox"] === "default" && cairnUser?.config.sandboxOptIn === false) sources["sandbox"] = "user";
  // A project base URL counts only where it would be in force: not under a flag or variable, and its profile selected.
  const blocked = blockedBaseUrls.find((entry) => entry.key === "baseUrl" || entry.key === `profiles.${profile?.name ?? ""}.baseUrl`);
  const blockedBaseUrl = blocked !== undefined && sources["baseUrl"] !== "flag" && sources["baseUrl"] !== "env" && provider !== "mock" ? blocked.url : undefined;
  const allowEnv = optional<string[]>("allowEnv") ?? [];

  return {
    permissions,
    sandbox,
    ...(sandboxNotice === undefined ? {} : { sandboxNotice }),
    sandboxUnavailable: sandboxChoice.unavailable,
    sandboxNetwork: value<boolean>("sandboxNetwork"),
    allowOutsideReads: value<boolean>("allowOutsideReads"),
    allowEnv,
    budget,
    spendCap,
    ...(optional<TelemetrySetting>("telemetry") === undefined ? {} : { telemetry: optional<TelemetrySetting>("telemetry")! }),
    cwd,
    provider,
    model: value<string>("model"),
    baseUrl,
    cloud: resolveCloudSettings(optional),
    apiKey: selectApiKey({ provider, flags, env, layers: [...profileLayers, ...cairnUserLayers], sources, sourceDetails }),
    profile: profileName,
    toolProtocol: value<ToolProtocol>("toolProtocol"),
    yes: bypassAllowed(value<boolean>("yes"), files, bookkeeping),
    json: value<boolean>("json"),
    plan: value<boolean>("plan"),
    parallelTools: value<boolean>("parallelTools"),
    keepBackgroundProcesses: value<boolean>("keepBackgroundProcesses"),
    editDiagnostics: value<boolean>("editDiagnostics"),
    lsp: languageServers(record<LspServerSetting>("lsp."), env),
    allowOutsideWrites: value<boolean>("allowOutsideWrites"),
    checkpoints: value<boolean>("checkpoints"),
    notifications: { channel: value<NotificationChannel>("notifications.channel"), afterSeconds: value<number>("notifications.afterSeconds") },
    maxMistakes: value<number>("maxMistakes"),
    dataDir: value<string>("dataDir"),
    askTimeoutMs,
    onAsk: value<OnAskPolicy>("onAsk"),
    autoApprove,
    autoMode: {
      enabled: value<boolean>("autoMode.enabled"),
      model: optional<string>("autoMode.model"),
      maxTokens: value<number>("autoMode.maxTokens"),
      maxCost: optional<number>("autoMode.maxCost"),
      timeoutMs: value<number>("autoMode.timeoutMs"),
    },
    models: resolveModels({ ...bookkeeping, files }),
    hooks: record<HookSetting>("hooks."),
    mcpWaitMs: value<number>("timeouts.mcpWaitMs"),
    diagnosticsWaitMs: value<number>("timeouts.diagnosticsMs"),
    stallTimeouts: {
      firstChunkMs: value<number>("timeouts.firstChunkMs"),
      betweenChunksMs: value<number>("timeouts.betweenChunksMs"),
    },
    retry: { delaysMs: value<number[]>("retry.delaysMs") },
    subagents: { maxParallel: value<number>("subagents.maxParallel") },
    context: contextSettings(value),
    modelLimits: modelLimits(optional),
    userConfigDir,
    userConfigPath: userFile,
    projectConfigPath: projectFile,
    trust: { folder: cwd, trusted, gated, heldBack, ...(blockedBaseUrl !== undefined ? { blockedBaseUrl } : {}) },
    settingsFiles: summaries,
    claudeUserDir,
    claudeStateFile: options.claudeStateFile ?? defaultClaudeStateFile(env),
    environment: commandEnvironment(record<string>("env."), allowEnv, bookkeeping),
    unsandboxedCommands: unsandboxedCommands(files, bookkeeping),
    ...statusLine(optional<StatusLineSetting>("statusLine")),
    unsupportedSettings,
    sources,
    sourceDetails,
    warnings,
  };
}

interface Bookkeeping {
  sources: Record<string, SettingSource>;
  sourceDetails: Record<string, string>;
  warnings: string[];
}

/** `permissions.disableBypassPermissionsMode: "disable"` in any file turns `--yes` (and bypassPermissions) off. */
function bypassAllowed(yes: boolean, files: readonly SettingsFile[], bookkeeping: Bookkeeping): boolean {
  const disabling = files.find((file) => file.disableBypass);
  if (!yes || disabling === undefined) return yes;
  bookkeeping.warnings.push(`${bookkeeping.sourceDetails["yes"] ?? "--yes"} ignored: ${disabling.path} sets permissions.disableBypassPermissionsMode "disable"; approvals are asked.`);
  bookkeeping.sources["yes"] = disabling.scope;
  bookkeeping.sourceDetails["yes"] = `${disabling.path} (permissions.disableBypassPermissionsMode)`;
  return false;
}

/** `env` for commands: a secret-looking name passes only when `allowEnv` names it. */
function commandEnvironment(variables: Record<string, string>, allowEnv: readonly string[], bookkeeping: Bookkeeping): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, text] of Object.entries(variables)) {
    if (looksSecret(name) && !allowEnv.includes(name)) {
      bookkeeping.warnings.push(`${bookkeeping.sourceDetails[`env.${name}`] ?? "env"}: env.${name} is not set for commands: its name looks secret. Add "${name}" to allowEnv in your config to pass it.`);
      delete bookkeeping.sources[`env.${name}`];
      delete bookkeeping.sourceDetails[`env.${name}`];
      continue;
    }
    environment[name] = text;
  }
  return environment;
}

/** Claude Code's `sandbox.excludedCommands` from every file that may set them, in order of precedence. */
function unsandboxedCommands(files: readonly SettingsFile[], bookkeeping: Bookkeeping): string[] {
  const from = files.filter((file) => file.unsandboxedCommands.length > 0);
  const first = from[0];
  if (first === undefined) return [];
  bookkeeping.sources["unsandboxedCommands"] = first.scope;
  bookkeeping.sourceDetails["unsandboxedCommands"] = from.map((file) => file.path).join(", ");
  return [...new Set(from.flatMap((file) => file.unsandboxedCommands))];
}

function statusLine(setting: StatusLineSetting | undefined): { statusLine?: StatusLineSetting } {
  return setting === undefined ? {} : { statusLine: setting };
}

function contextSettings(value: <T>(key: string) => T): ContextSettings {
  const settings = { ...defaultContextSettings };
  for (const key of Object.keys(settings) as Array<keyof ContextSettings>) (settings as Record<string, unknown>)[key] = value(`context.${key}`);
  return settings;
}

function modelLimits(optional: <T>(key: string) => T | undefined): NonNullable<ResolvedSettings["modelLimits"]> {
  const contextWindow = optional<number>("modelLimits.contextWindow");
  const maxOutputTokens = optional<number>("modelLimits.maxOutputTokens");
  return { ...(contextWindow === undefined ? {} : { contextWindow }), ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }) };
}

function pick<T>(layers: readonly Layer[], key: string): { value: T; layer: Layer } {
  for (const layer of layers) {
    if (layer.values.has(key)) return { value: layer.values.get(key) as T, layer };
  }
  throw new Error(`no value for setting "${key}" (missing default)`);
}
