/**
 * Turning each place settings come from (defaults, user file, project file,
 * profile, environment, flags) into a flat layer of dotted keys, validated with
 * messages that name the flag, variable or file to fix.
 */
import { dirname } from "node:path";
import { ConfigError } from "./errors.js";
import type { ConfigFile } from "./config-file.js";
import { expandPath } from "./paths.js";
import { setCloudKeys } from "./cloud-settings.js";
import type { SettingsFile } from "./settings-files.js";
import type { CliFlags, ProviderName, ProviderProfile, SettingSource } from "./types.js";
import { autoApproveKeys, providerNames } from "./types.js";

export interface Layer {
  source: SettingSource;
  /** The flag, variable or file, for `sourceDetails`. */
  detail: (key: string) => string;
  values: Map<string, unknown>;
}

export function createLayer(source: SettingSource, detail: string | ((key: string) => string)): Layer {
  return { source, detail: typeof detail === "string" ? () => detail : detail, values: new Map() };
}

function set(layer: Layer, key: string, value: unknown): void {
  if (value !== undefined) layer.values.set(key, value);
}

/** The keys a config file can set, flattened; records (`models`, `hooks`) become one key per entry. */
export function configFileLayer(layer: Layer, config: ConfigFile, file: string): Layer {
  // A relative dataDir is taken from the file's own folder, whoever runs cairn from where.
  const base = dirname(file);
  set(layer, "provider", config.provider);
  setCloudKeys(layer.values, config);
  set(layer, "model", config.model);
  set(layer, "baseUrl", config.baseUrl);
  set(layer, "apiKey", config.apiKey);
  set(layer, "profile", config.profile);
  set(layer, "toolProtocol", config.toolProtocol);
  set(layer, "maxMistakes", config.maxMistakes);
  set(layer, "parallelTools", config.parallelTools);
  set(layer, "keepBackgroundProcesses", config.keepBackgroundProcesses);
  set(layer, "editDiagnostics", config.editDiagnostics);
  for (const [name, server] of Object.entries(config.lsp ?? {})) set(layer, `lsp.${name}`, server);
  set(layer, "checkpoints", config.checkpoints);
  set(layer, "notifications.channel", config.notifications?.channel);
  set(layer, "notifications.afterSeconds", config.notifications?.afterSeconds);
  set(layer, "allowOutsideWrites", config.allowOutsideWrites);
  set(layer, "dataDir", config.dataDir === undefined ? undefined : expandPath(config.dataDir, base));
  set(layer, "askTimeoutMs", config.askTimeoutMs);
  set(layer, "onAsk", config.onAsk);
  for (const key of autoApproveKeys) set(layer, `autoApprove.${key}`, config.autoApprove?.[key]);
  set(layer, "timeouts.firstChunkMs", config.timeouts?.firstChunkMs);
  set(layer, "timeouts.betweenChunksMs", config.timeouts?.betweenChunksMs);
  set(layer, "timeouts.mcpWaitMs", config.timeouts?.mcpWaitMs);
  set(layer, "timeouts.diagnosticsMs", config.timeouts?.diagnosticsMs);
  set(layer, "retry.delaysMs", config.retry?.delaysMs);
  set(layer, "subagents.maxParallel", config.subagents?.maxParallel);
  set(layer, "autoMode.model", config.autoMode?.model);
  set(layer, "autoMode.maxTokens", config.autoMode?.maxTokens);
  set(layer, "autoMode.maxCost", config.autoMode?.maxCost);
  set(layer, "autoMode.timeoutMs", config.autoMode?.timeoutMs);
  for (const [key, value] of Object.entries(config.context ?? {})) set(layer, `context.${key}`, value);
  for (const [id, override] of Object.entries(config.models ?? {})) set(layer, `models.${id}`, override);
  for (const [name, command] of Object.entries(config.hooks ?? {})) set(layer, `hooks.${name}`, command);
  set(layer, "sandbox", config.sandbox);
  set(layer, "sandboxNetwork", config.sandboxNetwork);
  set(layer, "allowOutsideReads", config.allowOutsideReads);
  set(layer, "allowEnv", config.allowEnv);
  for (const [key, limit] of Object.entries(config.budget ?? {})) set(layer, `budget.${key}`, limit);
  for (const [key, limit] of Object.entries(config.spendCap ?? {})) set(layer, `spendCap.${key}`, limit);
  set(layer, "telemetry", config.telemetry);
  return layer;
}

/**
 * One settings file's layer: its cairn keys, and what its permission mode,
 * `env` and `statusLine` mean in cairn's settings, each naming the file.
 */
export function settingsFileLayer(file: SettingsFile): Layer {
  const details = new Map<string, string>();
  const layer = createLayer(file.scope, (key) => details.get(key) ?? file.path);
  configFileLayer(layer, file.config, file.path);
  const mode = file.defaultMode;
  const modeKey = mode === undefined ? undefined : permissionModeKeys[mode];
  if (modeKey !== undefined) {
    layer.values.set(modeKey, true);
    details.set(modeKey, `${file.path} (permissions.defaultMode ${mode ?? ""})`);
  }
  for (const [name, value] of Object.entries(file.environment)) layer.values.set(`env.${name}`, value);
  set(layer, "statusLine", file.statusLine);
  return layer;
}

/** The setting each permission mode turns on (`default` none). */
const permissionModeKeys: Record<string, string | undefined> = { acceptEdits: "autoApprove.editInside", bypassPermissions: "yes", plan: "plan", auto: "autoMode.enabled" };

export const permissionModes = ["default", "acceptEdits", "plan", "auto", "bypassPermissions"] as const;

export function profileLayer(name: string, profile: ProviderProfile, file: string): Layer {
  const layer = createLayer(`profile:${name}`, `profile "${name}" in ${file}`);
  set(layer, "provider", profile.provider);
  setCloudKeys(layer.values, profile);
  set(layer, "baseUrl", profile.baseUrl);
  set(layer, "model", profile.model);
  set(layer, "apiKey", profile.apiKey);
  set(layer, "toolProtocol", profile.toolProtocol);
  set(layer, "modelLimits.contextWindow", profile.contextWindow);
  set(layer, "modelLimits.maxOutputTokens", profile.maxOutputTokens);
  return layer;
}

function checkUrl(value: string, name: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return value;
  } catch {
    // reported below
  }
  throw new ConfigError(`${name} must be an http or https URL, like http://localhost:11434/v1 (got "${value}").`);
}

export function checkProvider(value: string, name: string): ProviderName {
  if ((providerNames as readonly string[]).includes(value)) return value as ProviderName;
  throw new ConfigError(`${name} must be one of ${providerNames.join(", ")} (got "${value}").`);
}

function checkChoice<T extends string>(value: string, choices: readonly T[], name: string): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(`${name} must be ${choices.join(" or ")} (got "${value}").`);
}

function checkPositiveInteger(value: string | number, name: string): number {
  const number = typeof value === "number" ? value : Number(value.trim());
  if (Number.isInteger(number) && number > 0) return number;
  throw new ConfigError(`${name} must be a whole number of 1 or more (got "${String(value)}").`);
}

function checkPositiveNumber(value: string | number, name: string): number {
  const number = typeof value === "number" ? value : Number(value.trim());
  if (Number.isFinite(number) && number > 0) return number;
  throw new ConfigError(`${name} must be a number above 0, like 0.50 (got "${String(value)}").`);
}

/** `30` (seconds), `500ms`, `30s`, `2m`. */
export function parseDuration(value: string | number, name: string): number {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return Math.round(value * 1000);
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/.exec(String(value));
  if (match?.[1] !== undefined) {
    const amount = Number(match[1]);
    const unit = match[2] ?? "s";
    return Math.round(unit === "ms" ? amount : unit === "m" ? amount * 60_000 : amount * 1000);
  }
  throw new ConfigError(`${name} must be a duration such as 30 (seconds), 30s, 500ms or 2m (got "${String(value)}").`);
}

/** Process environment; the provider decides which provider-specific base URL applies. */
export function environmentLayer(options: { env: NodeJS.ProcessEnv; cwd: string; provider: ProviderName }): Layer {
  const { env } = options;
  const names = new Map<string, string>();
  const layer = createLayer("env", (key) => names.get(key) ?? "environment");
  const read = (variable: string): string | undefined => {
    const value = env[variable];
    return value === undefined || value.trim() === "" ? undefined : value.trim();
  };
  const put = (key: string, variable: string, value: unknown): void => {
    if (value === undefined) return;
    layer.values.set(key, value);
    names.set(key, variable);
  };
  const provider = read("CAIRN_PROVIDER");
  put("provider", "CAIRN_PROVIDER", provider && checkProvider(provider, "CAIRN_PROVIDER"));
  put("model", "CAIRN_MODEL", read("CAIRN_MODEL"));
  const home = read("CAIRN_HOME");
  put("dataDir", "CAIRN_HOME", home && expandPath(home, options.cwd));
  const baseUrlVariable = ["CAIRN_BASE_URL", ...providerBaseUrlVariables(options.provider)].find((variable) => read(variable));
  if (baseUrlVariable !== undefined) put("baseUrl", baseUrlVariable, checkUrl(read(baseUrlVariable) ?? "", baseUrlVariable));
  return layer;
}

function providerBaseUrlVariables(provider: ProviderName): string[] {
  if (provider === "openai" || provider === "openai-responses") return ["OPENAI_BASE_URL"];
  if (provider === "anthropic") return ["ANTHROPIC_BASE_URL"];
  // The variable the @google/genai SDK itself reads.
  if (provider === "gemini") return ["GOOGLE_GEMINI_BASE_URL"];
  if (provider === "azure") return ["AZURE_OPENAI_ENDPOINT"];
  return [];
}

const flagNames: Record<string, string> = {
  provider: "--provider",
  baseUrl: "--base-url",
  model: "--model",
  apiKey: "--api-key",
  profile: "--profile",
  toolProtocol: "--tool-protocol",
  yes: "--yes",
  json: "--json",
  maxMistakes: "--max-mistakes",
  parallelTools: "--parallel-tools",
  plan: "--plan",
  dataDir: "--data-dir",
  askTimeoutMs: "--ask-timeout",
  onAsk: "--on-ask",
  allowOutsideWrites: "--allow-outside-writes",
  sandbox: "--sandbox",
  sandboxNetwork: "--sandbox-network",
  allowOutsideReads: "--allow-outside-reads",
  "budget.maxRequests": "--max-requests",
  "budget.maxTokens": "--max-tokens",
  "budget.maxCost": "--max-cost",
  "budget.maxTime": "--max-time",
  "budget.maxToolCalls": "--max-tool-calls",
  checkpoints: "--no-checkpoints",
  "autoMode.enabled": "--permission-mode auto",
  "autoMode.model": "--judge-model",
};

export function flagLayer(flags: CliFlags, cwd: string): Layer {
  const layer = createLayer("flag", (key) => flagNames[key] ?? "command line");
  const text = (value: string | undefined): string | undefined => (value === undefined || value.trim() === "" ? undefined : value.trim());
  const provider = text(flags.provider);
  set(layer, "provider", provider && checkProvider(provider, "--provider"));
  const baseUrl = text(flags.baseUrl);
  set(layer, "baseUrl", baseUrl && checkUrl(baseUrl, "--base-url"));
  set(layer, "model", text(flags.model));
  set(layer, "apiKey", text(flags.apiKey));
  set(layer, "profile", text(flags.profile));
  const protocol = text(flags.toolProtocol);
  set(layer, "toolProtocol", protocol && checkChoice(protocol, ["xml", "native"] as const, "--tool-protocol"));
  const onAsk = text(flags.onAsk);
  set(layer, "onAsk", onAsk && checkChoice(onAsk, ["deny", "fail"] as const, "--on-ask"));
  if (flags.maxMistakes !== undefined) set(layer, "maxMistakes", checkPositiveInteger(flags.maxMistakes, "--max-mistakes"));
  if (flags.askTimeout !== undefined) set(layer, "askTimeoutMs", parseDuration(flags.askTimeout, "--ask-timeout"));
  const dataDir = text(flags.dataDir);
  set(layer, "dataDir", dataDir && expandPath(dataDir, cwd));
  // Switches only count when given: an absent switch must not hide a config value.
  for (const key of ["yes", "json", "plan", "parallelTools", "allowOutsideWrites", "sandboxNetwork", "allowOutsideReads"] as const) {
    if (flags[key] === true) set(layer, key, true);
  }
  const sandbox = text(flags.sandbox);
  set(layer, "sandbox", sandbox && checkChoice(sandbox, ["workspace-write", "read-only", "off"] as const, "--sandbox"));
  if (flags.maxRequests !== undefined) set(layer, "budget.maxRequests", checkPositiveInteger(flags.maxRequests, "--max-requests"));
  if (flags.maxTokens !== undefined) set(layer, "budget.maxTokens", checkPositiveInteger(flags.maxTokens, "--max-tokens"));
  if (flags.maxToolCalls !== undefined) set(layer, "budget.maxToolCalls", checkPositiveInteger(flags.maxToolCalls, "--max-tool-calls"));
  if (flags.maxCost !== undefined) set(layer, "budget.maxCost", checkPositiveNumber(flags.maxCost, "--max-cost"));
  if (flags.maxTime !== undefined) set(layer, "budget.maxTime", parseDuration(flags.maxTime, "--max-time") / 1000);
  if (flags.checkpoints === false) set(layer, "checkpoints", false);
  const mode = text(flags.permissionMode);
  const modeKey = mode === undefined ? undefined : permissionModeKeys[checkChoice(mode, permissionModes, "--permission-mode")];
  if (modeKey !== undefined) set(layer, modeKey, true);
  set(layer, "autoMode.model", text(flags.judgeModel));
  return layer;
}
