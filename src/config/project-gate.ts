/**
 * What a project's settings files may do. Keys never come from a project
 * (anyone who can commit to the repository could read them), and skipping
 * approvals (`bypassPermissions`) is only ever the user's own choice. Until
 * the folder is trusted, nothing in a project's files can loosen anything:
 * no auto-approval, allow rules, hooks, environment, status-line command,
 * unsandboxed commands, data folder, looser sandbox, other ask policy, own
 * model prices, or address the user's key would be sent to (this machine's
 * included). What they may do at once is add caution: deny and ask rules, an
 * approval turned off, plan mode, a lower budget.
 */
import { isClaudeFile, type SettingsFile } from "./settings-files.js";
import { autoApproveKeys } from "./types.js";

const priceFields = ["inputPrice", "outputPrice", "cacheReadPrice", "cacheWritePrice"] as const;

export function sameUrl(left: string, right: string): boolean {
  const normal = (url: string): string => url.trim().replace(/\/+$/, "").toLowerCase();
  return normal(left) === normal(right);
}

function dropKeys(file: SettingsFile, warnings: string[], userFile: string): void {
  const { config } = file;
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
    warnings.push(`${file.path}: ${keyPlaces.join(", ")} ignored: API keys belong in the environment or the user config (${userFile}), never in a project's files.`);
  }
  if (file.defaultMode === "bypassPermissions") {
    delete file.defaultMode;
    warnings.push(`${file.path}: permissions.defaultMode "bypassPermissions" ignored: only you can skip approvals, with --yes or in your own ~/.claude/settings.json, never a project's file.`);
  }
}

/** Removes what the untrusted project may not do; returns the keys held back. */
function holdBack(file: SettingsFile, options: { allowBaseUrl: string | undefined; blockedBaseUrls: Array<{ key: string; url: string }> }): string[] {
  const { config } = file;
  const held: string[] = [];
  for (const key of autoApproveKeys) {
    if (config.autoApprove?.[key] === true) {
      delete config.autoApprove[key];
      held.push(`autoApprove.${key}`);
    }
  }
  if (config.hooks !== undefined && Object.keys(config.hooks).length > 0) held.push("hooks");
  delete config.hooks;
  if (config.allowOutsideWrites === true) {
    delete config.allowOutsideWrites;
    held.push("allowOutsideWrites");
  }
  for (const key of ["dataDir", "allowEnv", "allowOutsideReads"] as const) {
    if (config[key] !== undefined && config[key] !== false) {
      delete config[key];
      held.push(key);
    }
  }
  if (config.sandbox === "off") {
    delete config.sandbox;
    held.push(isClaudeFile(file.kind) ? "sandbox.enabled" : "sandbox");
  }
  if (config.sandboxNetwork === true) {
    delete config.sandboxNetwork;
    held.push("sandboxNetwork");
  }
  // A project's language server runs a program of the project's choosing: only once trusted (turning one off is harmless).
  for (const [name, server] of Object.entries(config.lsp ?? {})) {
    if (server.command === undefined && server.initialization === undefined) continue;
    delete config.lsp?.[name];
    held.push(`lsp.${name}`);
  }
  if (config.keepBackgroundProcesses === true) {
    delete config.keepBackgroundProcesses;
    held.push("keepBackgroundProcesses");
  }
  if (config.autoMode !== undefined) {
    delete config.autoMode;
    held.push("autoMode");
  }
  if (config.onAsk === "deny") {
    delete config.onAsk;
    held.push("onAsk");
  }
  if ((config.permissions?.allow ?? []).length > 0) {
    delete config.permissions?.allow;
    held.push("permissions.allow");
  }
  if (file.defaultMode !== undefined && file.defaultMode !== "plan" && file.defaultMode !== "default") {
    held.push(`permissions.defaultMode ${file.defaultMode}`);
    delete file.defaultMode;
  }
  if (Object.keys(file.environment).length > 0) {
    held.push("env");
    file.environment = {};
  }
  if (file.statusLine !== undefined) {
    held.push("statusLine");
    delete file.statusLine;
  }
  if (file.unsandboxedCommands.length > 0) {
    held.push("sandbox.excludedCommands");
    file.unsandboxedCommands = [];
  }
  for (const [id, override] of Object.entries(config.models ?? {})) {
    for (const field of priceFields) {
      if (override[field] === undefined) continue;
      delete override[field];
      held.push(`models.${id}.${field}`);
    }
  }
  const allowedUrl = (url: string): boolean => options.allowBaseUrl !== undefined && sameUrl(url, options.allowBaseUrl);
  if (config.baseUrl !== undefined && !allowedUrl(config.baseUrl)) {
    options.blockedBaseUrls.push({ key: "baseUrl", url: config.baseUrl });
    delete config.baseUrl;
    held.push("baseUrl");
  }
  // An Azure endpoint would receive the key just as a base URL would.
  for (const [where, holder] of [["", config], ...Object.entries(config.profiles ?? {}).map(([name, profile]) => [`profiles.${name}.`, profile] as const)] as const) {
    const endpoint = holder.azure?.endpoint;
    if (endpoint === undefined || allowedUrl(endpoint) || holder.azure === undefined) continue;
    delete holder.azure.endpoint;
    held.push(`${where}azure.endpoint`);
  }
  for (const [name, profile] of Object.entries(config.profiles ?? {})) {
    if (profile.baseUrl !== undefined && !allowedUrl(profile.baseUrl)) {
      options.blockedBaseUrls.push({ key: `profiles.${name}.baseUrl`, url: profile.baseUrl });
      delete profile.baseUrl;
      held.push(`profiles.${name}.baseUrl`);
    }
  }
  return held;
}

/**
 * Applies the rules above to one of the project's files, in place. Returns
 * what was held back for want of trust (empty once trusted).
 */
export function gateProjectFile(options: { file: SettingsFile; trusted: boolean; userFile: string; warnings: string[]; allowBaseUrl: string | undefined; blockedBaseUrls: Array<{ key: string; url: string }> }): string[] {
  const { file, warnings } = options;
  dropKeys(file, warnings, options.userFile);
  if (options.trusted) return [];
  const held = holdBack(file, options);
  if (held.length > 0) {
    warnings.push(`${file.path}: ${held.join(", ")} ignored because this folder is not trusted yet. Run once with --trust (or accept the trust question in cairn) to allow them.`);
  }
  return held;
}
