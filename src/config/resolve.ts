/**
 * Settings from every place, in order of precedence: flags > environment >
 * selected profile > project `.cairn/config.json` > user config > defaults.
 */
import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { ConfigFile, LoadedConfigFile } from "./config-file.js";
import { readConfigFileLazily as readConfigFile } from "./read-config-lazily.js";
import { isLoopbackUrl, providerKeyVariable } from "./api-key.js";
import { ConfigError } from "./errors.js";
import { configFileLayer, createLayer, environmentLayer, flagLayer, profileLayer, type Layer } from "./layers.js";
import { defaultDataDir, defaultUserConfigDir, projectConfigPath, userConfigPath } from "./paths.js";
import { SecretValue } from "./secret.js";
import { isTrusted, trustFolder } from "./trust.js";
import { projectHookPlaces } from "./project-hook-places.js";
import { sandboxDefault, type BubblewrapProbe } from "./sandbox-default.js";
import { checkBubblewrap } from "../security/sandbox.js";
import type {
  HookSetting,
  AutoApproveSettings,
  CliFlags,
  ModelOverride,
  OnAskPolicy,
  ProviderName,
  ProviderProfile,
  ResolvedSettings,
  SettingSource,
  ToolProtocol,
} from "./types.js";
import { autoApproveKeys } from "./types.js";
import { defaultModels as catalogueDefaultModels } from "../llm/models.js";
import { defaultApprovalSettings } from "../tools/approval.js";
import { collectPermissionRules } from "../security/permission-sources.js";
import { RuleSyntaxError } from "../security/permission-rules.js";
import type { SandboxMode } from "../security/security-decision.js";
import type { BudgetLimits } from "../security/settings-schema.js";

function sameUrl(left: string, right: string): boolean {
  const normal = (url: string): string => url.trim().replace(/\/+$/, "").toLowerCase();
  return normal(left) === normal(right);
}
import { defaultContextSettings } from "../context/context-settings.js";
import type { ContextSettings } from "../context/context-settings.js";

export interface ResolveSettingsOptions {
  flags: CliFlags;
  env: NodeJS.ProcessEnv;
  /** The folder cairn was started in; `flags.cwd` is resolved against it. */
  cwd: string;
  /** Default `$XDG_CONFIG_HOME/cairn` or `~/.config/cairn`. */
  userConfigDir?: string;
  /** `--trust`: trust the workspace (remembered) before reading its config. */
  trust?: boolean;
  /** Whether bubblewrap works here (default: the real check), asked only for the opted-in default. */
  probeSandbox?: BubblewrapProbe;
}

/** The model used when none is configured: the catalogue's choice. */
export const defaultModels: Record<ProviderName, string> = catalogueDefaultModels;

export const defaultAutoApprove: AutoApproveSettings = defaultApprovalSettings;

function defaultsLayer(): Layer {
  const layer = createLayer("default", "built-in default");
  const values: Record<string, unknown> = {
    provider: "anthropic",
    toolProtocol: "xml",
    yes: false,
    json: false,
    plan: false,
    parallelTools: false,
    keepBackgroundProcesses: false,
    allowOutsideWrites: false,
    sandbox: "off",
    sandboxNetwork: false,
    allowOutsideReads: false,
    checkpoints: true,
    maxMistakes: 3,
    dataDir: defaultDataDir(),
    onAsk: "fail",
    "timeouts.firstChunkMs": 60_000,
    "timeouts.betweenChunksMs": 30_000,
    "timeouts.mcpWaitMs": 10_000,
    "retry.delaysMs": [2000, 4000, 8000],
    "subagents.maxParallel": 3,
  };
  for (const [key, value] of Object.entries(defaultContextSettings)) values[`context.${key}`] = value;
  for (const key of autoApproveKeys) values[`autoApprove.${key}`] = defaultAutoApprove[key];
  for (const [key, value] of Object.entries(values)) layer.values.set(key, value);
  return layer;
}

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

/**
 * Keys never come from a project (anyone who can commit to the repository could
 * read them); and until the folder is trusted, nothing that runs programs or
 * skips the user's approval, nor an address the user's key would be sent to.
 * Returns what was held back for want of trust.
 */
function sanitizeProject(options: {
  project: LoadedConfigFile;
  trusted: boolean;
  userFile: string;
  warnings: string[];
  allowBaseUrl: string | undefined;
  blockedBaseUrls: Array<{ key: string; url: string }>;
}): string[] {
  const { project, trusted, warnings } = options;
  const config: ConfigFile = project.config;
  const keyPlaces: string[] = [];
  if (config.apiKey !== undefined) {
    delete config.apiKey;
    keyPlaces.push("apiKey");
  }
  for (const [name, profile] of Object.entries(config.profiles ?? {})) {
    if (profile.apiKey === undefined) continue;
    delete profile.apiKey;
    keyPlaces.push(`profiles.${name}.apiKey`);
  }
  if (keyPlaces.length > 0) {
    warnings.push(
      `${project.path}: ${keyPlaces.join(", ")} ignored: API keys belong in the environment or the user config (${options.userFile}), never in a project's files.`,
    );
  }
  if (trusted) return [];
  const gated: string[] = [];
  for (const key of autoApproveKeys) {
    if (config.autoApprove?.[key] === true) {
      delete config.autoApprove[key];
      gated.push(`autoApprove.${key}`);
    }
  }
  if (config.hooks !== undefined && Object.keys(config.hooks).length > 0) gated.push("hooks");
  delete config.hooks;
  if (config.allowOutsideWrites === true) {
    delete config.allowOutsideWrites;
    gated.push("allowOutsideWrites");
  }
  // #14: before trust, nothing that moves cairn's data, runs code or loosens the sandbox.
  for (const key of ["dataDir", "allowEnv", "allowOutsideReads"] as const) {
    if (config[key] !== undefined && config[key] !== false) {
      delete config[key];
      gated.push(key);
    }
  }
  if (config.sandbox === "off") {
    delete config.sandbox;
    gated.push("sandbox");
  }
  if (config.sandboxNetwork === true) {
    delete config.sandboxNetwork;
    gated.push("sandboxNetwork");
  }
  const allowedUrl = (url: string): boolean => isLoopbackUrl(url) || (options.allowBaseUrl !== undefined && sameUrl(url, options.allowBaseUrl));
  if (config.baseUrl !== undefined && !allowedUrl(config.baseUrl)) {
    options.blockedBaseUrls.push({ key: "baseUrl", url: config.baseUrl });
    delete config.baseUrl;
    gated.push("baseUrl");
  }
  for (const [name, profile] of Object.entries(config.profiles ?? {})) {
    if (profile.baseUrl !== undefined && !allowedUrl(profile.baseUrl)) {
      options.blockedBaseUrls.push({ key: `profiles.${name}.baseUrl`, url: profile.baseUrl });
      delete profile.baseUrl;
      gated.push(`profiles.${name}.baseUrl`);
    }
  }
  if (gated.length > 0) {
    warnings.push(
      `${project.path}: ${gated.join(", ")} ignored because this folder is not trusted yet. Run once with --trust (or accept the trust question in cairn) to allow them.`,
    );
  }
  return gated;
}

/** Resolves every setting and records where each one came from. */
export async function resolveSettings(options: ResolveSettingsOptions): Promise<ResolvedSettings> {
  const warnings: string[] = [];
  const { flags, env } = options;
  const cwd = await workspaceFolder(options);
  const userConfigDir = options.userConfigDir ?? defaultUserConfigDir(env);
  const userFile = userConfigPath(userConfigDir);
  const projectFile = projectConfigPath(cwd);

  if (options.trust === true || flags.trust === true) await trustFolder(cwd, userConfigDir);
  let trusted = false;
  try {
    trusted = await isTrusted(cwd, userConfigDir);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    warnings.push(`${error.message} Treating this folder as not trusted.`);
  }

  const user = await readConfigFile(userFile);
  const project = await readConfigFile(projectFile);
  warnings.push(...(user?.warnings ?? []), ...(project?.warnings ?? []));
  const blockedBaseUrls: Array<{ key: string; url: string }> = [];
  const gated = project ? sanitizeProject({ project, trusted, userFile, warnings, allowBaseUrl: flags.allowBaseUrl, blockedBaseUrls }) : [];
  let permissions: ReturnType<typeof collectPermissionRules>;
  try {
    permissions = collectPermissionRules({
      user: user && { path: userFile, permissions: user.config.permissions },
      project: project && { path: projectFile, permissions: project.config.permissions },
      trusted,
      flags,
    });
  } catch (error) {
    if (error instanceof RuleSyntaxError) throw new ConfigError(`${error.message} (in --allowed-tools, --ask-tools or --disallowed-tools).`);
    throw error;
  }
  gated.push(...permissions.gated);
  if (!trusted && (await exists(join(cwd, ".cairn", "mcp.json")))) gated.push(".cairn/mcp.json");
  if (!trusted) gated.push(...(await projectHookPlaces(cwd)));

  const defaults = defaultsLayer();
  const userLayer = user ? configFileLayer(createLayer("user", userFile), user.config, userFile) : createLayer("user", userFile);
  const projectLayer = project
    ? configFileLayer(createLayer("project", projectFile), project.config, projectFile)
    : createLayer("project", projectFile);
  const flagsLayer = flagLayer(flags, options.cwd);

  const profile = selectProfile({ layers: [flagsLayer, projectLayer, userLayer], user, project });
  const profileLayers = profile ? [profileLayer(profile.name, profile.profile, profile.file)] : [];

  const lowerLayers = [...profileLayers, projectLayer, userLayer, defaults];
  const provisional = environmentLayer({ env, cwd: options.cwd, provider: "mock" });
  const provider = pick<ProviderName>([flagsLayer, provisional, ...lowerLayers], "provider").value;
  const environment = environmentLayer({ env, cwd: options.cwd, provider });
  defaults.values.set("model", defaultModels[provider]);
  const layers = [flagsLayer, environment, ...lowerLayers];

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

  const budget: BudgetLimits = {};
  for (const key of ["maxRequests", "maxTokens", "maxCost", "maxTime", "maxToolCalls"] as const) {
    const limit = optional<number>(`budget.${key}`);
    if (limit !== undefined) budget[key] = limit;
  }
  // The sandbox is the boundary (issue 26): on wherever bubblewrap works unless someone turned it off.
  const chosenSandbox = value<SandboxMode>("sandbox");
  const sandboxChoice = sandboxDefault({
    chosen: sources["sandbox"] === "default" ? undefined : { mode: chosenSandbox, detail: sourceDetails["sandbox"] ?? String(sources["sandbox"]) },
    legacyOptIn: user?.config.sandboxOptIn,
    userFile,
    probe: options.probeSandbox ?? checkBubblewrap,
  });
  const sandbox = sandboxChoice.mode;
  const sandboxNotice = sandboxChoice.notice;
  sourceDetails["sandbox"] = sandboxChoice.detail;
  if (sources["sandbox"] === "default" && user?.config.sandboxOptIn === false) sources["sandbox"] = "user";
  // A project base URL counts only where it would be in force: not under a flag or variable, and its profile selected.
  const blocked = blockedBaseUrls.find((entry) => entry.key === "baseUrl" || entry.key === `profiles.${profile?.name ?? ""}.baseUrl`);
  const blockedBaseUrl = blocked !== undefined && sources["baseUrl"] !== "flag" && sources["baseUrl"] !== "env" && provider !== "mock" ? blocked.url : undefined;

  return {
    permissions: permissions.rules,
    sandbox,
    ...(sandboxNotice === undefined ? {} : { sandboxNotice }),
    sandboxUnavailable: sandboxChoice.unavailable,
    sandboxNetwork: value<boolean>("sandboxNetwork"),
    allowOutsideReads: value<boolean>("allowOutsideReads"),
    allowEnv: optional<string[]>("allowEnv") ?? [],
    budget,
    cwd,
    provider,
    model: value<string>("model"),
    baseUrl,
    apiKey: selectApiKey({ provider, flags, env, layers: [...profileLayers, userLayer], sources, sourceDetails }),
    profile: profileName,
    toolProtocol: value<ToolProtocol>("toolProtocol"),
    yes: value<boolean>("yes"),
    json: value<boolean>("json"),
    plan: value<boolean>("plan"),
    parallelTools: value<boolean>("parallelTools"),
    keepBackgroundProcesses: value<boolean>("keepBackgroundProcesses"),
    allowOutsideWrites: value<boolean>("allowOutsideWrites"),
    checkpoints: value<boolean>("checkpoints"),
    maxMistakes: value<number>("maxMistakes"),
    dataDir: value<string>("dataDir"),
    askTimeoutMs,
    onAsk: value<OnAskPolicy>("onAsk"),
    autoApprove,
    models: record<ModelOverride>("models."),
    hooks: record<HookSetting>("hooks."),
    mcpWaitMs: value<number>("timeouts.mcpWaitMs"),
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
    trust: { folder: cwd, trusted, gated, ...(blockedBaseUrl !== undefined ? { blockedBaseUrl } : {}) },
    sources,
    sourceDetails,
    warnings,
  };
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

function selectProfile(options: {
  layers: Layer[];
  user: LoadedConfigFile | undefined;
  project: LoadedConfigFile | undefined;
}): { name: string; profile: ProviderProfile; file: string; selectedBy: Layer } | undefined {
  const selectedBy = options.layers.find((layer) => layer.values.has("profile"));
  if (selectedBy === undefined) return undefined;
  const name = selectedBy.values.get("profile") as string;
  for (const file of [options.project, options.user]) {
    const profile = file?.config.profiles?.[name];
    if (file && profile) {
      // A project profile of the same name extends the user's (whose key it cannot hold).
      const userProfile = file === options.project ? options.user?.config.profiles?.[name] : undefined;
      return { name, profile: { ...userProfile, ...profile }, file: file.path, selectedBy };
    }
  }
  const defined = [options.user, options.project].flatMap((file) => Object.keys(file?.config.profiles ?? {}));
  throw new ConfigError(
    `profile "${name}" (from ${selectedBy.detail("profile")}) is not defined. ` +
      (defined.length > 0 ? `Defined profiles: ${[...new Set(defined)].join(", ")}.` : "No profiles are defined.") +
      ` Add it under "profiles" in ${options.user?.path ?? "the user config"}.`,
  );
}

/** `--api-key`, else `CAIRN_API_KEY`, else the provider's own variable, else the profile's, else the user config's. */
function selectApiKey(options: {
  provider: ProviderName;
  flags: CliFlags;
  env: NodeJS.ProcessEnv;
  layers: Layer[];
  sources: Record<string, SettingSource>;
  sourceDetails: Record<string, string>;
}): SecretValue | undefined {
  const { provider, flags, env, sources, sourceDetails } = options;
  if (provider === "mock") return undefined;
  const found = (source: SettingSource, detail: string, key: string | undefined): SecretValue | undefined => {
    if (key === undefined || key.trim() === "") return undefined;
    sources["apiKey"] = source;
    sourceDetails["apiKey"] = detail;
    return new SecretValue(key.trim());
  };
  const variable = providerKeyVariable(provider);
  const fromFlagOrEnv =
    found("flag", "--api-key", flags.apiKey) ??
    found("env", "CAIRN_API_KEY", env["CAIRN_API_KEY"]) ??
    (variable === undefined ? undefined : found("env", variable, env[variable])) ??
    (provider === "gemini" ? found("env", "GOOGLE_API_KEY", env["GOOGLE_API_KEY"]) : undefined);
  if (fromFlagOrEnv) return fromFlagOrEnv;
  for (const layer of options.layers) {
    const key = layer.values.get("apiKey");
    if (typeof key === "string") return found(layer.source, layer.detail("apiKey"), key);
  }
  return undefined;
}
