/**
 * MCP server configuration in the common `mcpServers` JSON format (the one other
 * agents and editors read), validated into `McpServerConfig` values.
 */
import { readFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";

export type McpRemoteTransportType = "streamableHttp" | "sse";

export type McpTransportConfig = { type: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string } | { type: McpRemoteTransportType; url: string; headers: Record<string, string> };

export interface McpServerConfig {
  name: string;
  transport: McpTransportConfig;
  disabled: boolean;
  /** Tool names that run without asking the user. */
  autoApprove: string[];
  /** Per-call timeout; the config gives seconds. */
  timeoutMs: number;
  /** The file this server was read from. */
  source: string;
  /** Folders it may read in the sandbox, even in cairn's data folder (a plugin's own folder). */
  visible?: readonly string[];
}

export const defaultToolTimeoutSeconds = 60;

/** A configuration file that cannot be used; the message names the file and the server. */
export class McpConfigError extends Error {
  override readonly name = "McpConfigError";
}

const knownKeys = new Set(["command", "args", "env", "cwd", "url", "type", "transport", "headers", "disabled", "autoApprove", "timeout"]);

const remoteTypeAliases: Record<string, McpRemoteTransportType> = {
  streamableHttp: "streamableHttp",
  "streamable-http": "streamableHttp",
  http: "streamableHttp",
  sse: "sse",
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Expands `${NAME}` and `${NAME:-fallback}` from the environment, as other clients of
 * this format do, so secrets can stay out of the file.
 */
export function expandEnvironment(text: string, environment: NodeJS.ProcessEnv = process.env): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, name: string, fallback?: string) => {
    return environment[name] ?? fallback ?? "";
  });
}

interface ParseContext {
  file: string;
  /** Relative `cwd` values are resolved against this folder. */
  baseDirectory: string;
  errors: string[];
  warnings: string[];
}

function stringRecord(value: unknown, field: string, where: string, context: ParseContext): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value)) {
    context.errors.push(`${where}: "${field}" must be an object of strings, like {"KEY": "value"}`);
    return {};
  }
  const result: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== "string") {
      context.errors.push(`${where}: "${field}.${key}" must be a string`);
      continue;
    }
    result[key] = expandEnvironment(entry);
  }
  return result;
}

function parseTransport(entry: Record<string, unknown>, where: string, context: ParseContext): McpTransportConfig | undefined {
  const declaredType = entry["type"] ?? entry["transport"];
  if (declaredType !== undefined && typeof declaredType !== "string") {
    context.errors.push(`${where}: "type" must be a string ("stdio", "streamableHttp" or "sse")`);
    return undefined;
  }
  const hasCommand = entry["command"] !== undefined;
  const hasUrl = entry["url"] !== undefined;
  if (hasCommand && hasUrl) {
    context.errors.push(`${where}: give either "command" (a local server) or "url" (a remote one), not both`);
    return undefined;
  }
  if (!hasCommand && !hasUrl) {
    context.errors.push(`${where}: needs "command" (a local server) or "url" (a remote one)`);
    return undefined;
  }
  if (hasCommand) {
    if (declaredType !== undefined && declaredType !== "stdio") {
      context.errors.push(`${where}: "type" is "${declaredType}" but a "command" server uses "stdio"`);
      return undefined;
    }
    const command = entry["command"];
    if (typeof command !== "string" || command.trim() === "") {
      context.errors.push(`${where}: "command" must be a non-empty string`);
      return undefined;
    }
    const args = entry["args"] ?? [];
    if (!Array.isArray(args) || !args.every((argument) => typeof argument === "string")) {
      context.errors.push(`${where}: "args" must be an array of strings`);
      return undefined;
    }
    const cwd = entry["cwd"];
    if (cwd !== undefined && typeof cwd !== "string") {
      context.errors.push(`${where}: "cwd" must be a string`);
      return undefined;
    }
    const env = stringRecord(entry["env"], "env", where, context);
    const transport: McpTransportConfig = {
      type: "stdio",
      command: expandEnvironment(command),
      args: args.map((argument: string) => expandEnvironment(argument)),
      env,
    };
    if (cwd !== undefined) {
      const expanded = expandEnvironment(cwd);
      transport.cwd = isAbsolute(expanded) ? expanded : resolve(context.baseDirectory, expanded);
    }
    return transport;
  }
  const url = entry["url"];
  if (typeof url !== "string") {
    context.errors.push(`${where}: "url" must be a string`);
    return undefined;
  }
  const expandedUrl = expandEnvironment(url);
  let parsed: URL;
  try {
    parsed = new URL(expandedUrl);
  } catch {
    context.errors.push(`${where}: "url" is not a valid URL: ${expandedUrl}`);
    return undefined;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    context.errors.push(`${where}: "url" must start with http:// or https://`);
    return undefined;
  }
  const type = declaredType === undefined ? "streamableHttp" : remoteTypeAliases[declaredType];
  if (type === undefined) {
    context.errors.push(`${where}: unknown transport "${declaredType}"; use "streamableHttp" or "sse"`);
    return undefined;
  }
  return { type, url: expandedUrl, headers: stringRecord(entry["headers"], "headers", where, context) };
}

function parseServer(name: string, entry: unknown, context: ParseContext): McpServerConfig | undefined {
  const where = `${context.file}: server "${name}"`;
  if (!isRecord(entry)) {
    context.errors.push(`${where}: must be an object with "command" or "url"`);
    return undefined;
  }
  for (const key of Object.keys(entry)) {
    if (!knownKeys.has(key)) context.warnings.push(`${where}: unknown setting "${key}" ignored`);
  }
  const errorsBefore = context.errors.length;
  const transport = parseTransport(entry, where, context);
  const disabled = entry["disabled"] ?? false;
  if (typeof disabled !== "boolean") context.errors.push(`${where}: "disabled" must be true or false`);
  const autoApprove = entry["autoApprove"] ?? [];
  if (!Array.isArray(autoApprove) || !autoApprove.every((tool) => typeof tool === "string")) {
    context.errors.push(`${where}: "autoApprove" must be an array of tool names`);
  }
  const timeout = entry["timeout"] ?? defaultToolTimeoutSeconds;
  if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0) {
    context.errors.push(`${where}: "timeout" must be a positive number of seconds`);
  }
  if (transport === undefined || context.errors.length > errorsBefore) return undefined;
  return {
    name,
    transport,
    disabled: disabled === true,
    autoApprove: autoApprove as string[],
    timeoutMs: Math.round((timeout as number) * 1000),
    source: context.file,
  };
}

/** Validates one file's parsed JSON; throws `McpConfigError` listing every problem. */
export function parseMcpConfig(raw: unknown, options: { file: string; baseDirectory: string }): { servers: McpServerConfig[]; warnings: string[] } {
  const context: ParseContext = { ...options, errors: [], warnings: [] };
  if (!isRecord(raw) || !isRecord(raw["mcpServers"])) {
    throw new McpConfigError(`${options.file}: expected an object {"mcpServers": {"<name>": {...}}}`);
  }
  for (const key of Object.keys(raw)) {
    if (key !== "mcpServers") context.warnings.push(`${options.file}: unknown top-level key "${key}" ignored`);
  }
  const servers: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(raw["mcpServers"])) {
    if (name.trim() === "") {
      context.errors.push(`${options.file}: a server has an empty name`);
      continue;
    }
    const server = parseServer(name, entry, context);
    if (server !== undefined) servers.push(server);
  }
  if (context.errors.length > 0) {
    throw new McpConfigError(`Invalid MCP configuration:\n  ${context.errors.join("\n  ")}`);
  }
  return { servers, warnings: context.warnings };
}

/** Reads a file's JSON, or `undefined` when the file does not exist. */
export async function readMcpConfigFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new McpConfigError(`${file}: cannot be read: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new McpConfigError(`${file}: is not valid JSON (${(error as Error).message}); fix or remove the file`);
  }
}

export function userMcpConfigPath(userConfigDir: string): string {
  return join(userConfigDir, "mcp.json");
}

export function projectMcpConfigPath(workspace: string): string {
  return join(workspace, ".cairn", "mcp.json");
}

/** Claude Code's project file: `.mcp.json` at the project's root ("project" scope, shared with the team). */
export function claudeProjectMcpConfigPath(workspace: string): string {
  return join(workspace, ".mcp.json");
}

/**
 * Every server, lowest precedence first, a later one replacing an earlier one
 * of the same name: the user's in Claude Code's state file (`~/.claude.json`),
 * the user's `mcp.json`, the project's `.mcp.json` (Claude Code's) and
 * `.cairn/mcp.json` (only once the folder is trusted, since a repository could
 * otherwise start any program), and the user's own for this project in
 * `~/.claude.json` (Claude Code's "local" scope, which wins there too).
 */
export async function loadMcpConfig(options: {
  userConfigDir: string;
  workspace: string;
  projectTrusted: boolean;
  /** Claude Code's state file (`~/.claude.json`); none: not read. */
  claudeStateFile?: string;
  /** Enabled plugins' servers (src/plugins), named `plugin:<plugin>:<server>`, trusted at install. */
  pluginServers?: readonly McpServerConfig[];
}): Promise<{ servers: McpServerConfig[]; warnings: string[] }> {
  const warnings: string[] = [];
  const byName = new Map<string, McpServerConfig>();
  const userSources = new Set<string>();
  const add = (servers: readonly McpServerConfig[], scope: "user" | "project"): void => {
    for (const server of servers) {
      const replaced = byName.get(server.name);
      if (replaced !== undefined && scope === "project" && userSources.has(replaced.source)) {
        warnings.push(`${server.source}: server "${server.name}" replaces the one in ${replaced.source}`);
      }
      if (scope === "user") userSources.add(server.source);
      byName.set(server.name, server);
    }
  };
  // Loaded only when asked for: it imports this module's parser.
  const claude = options.claudeStateFile === undefined ? undefined : await (await import("./claude-state-servers.js")).readClaudeStateServers({ file: options.claudeStateFile, workspace: options.workspace, warnings });
  add(claude?.user ?? [], "user");
  add(options.pluginServers ?? [], "user");
  const userFile = userMcpConfigPath(options.userConfigDir);
  const userRaw = await readMcpConfigFile(userFile);
  if (userRaw !== undefined) {
    const parsed = parseMcpConfig(userRaw, { file: userFile, baseDirectory: options.userConfigDir });
    warnings.push(...parsed.warnings);
    add(parsed.servers, "user");
  }
  for (const projectFile of [claudeProjectMcpConfigPath(options.workspace), projectMcpConfigPath(options.workspace)]) {
    const projectRaw = await readMcpConfigFile(projectFile);
    if (projectRaw === undefined) continue;
    if (!options.projectTrusted) {
      warnings.push(`${projectFile}: ignored because this folder is not trusted yet`);
      continue;
    }
    const parsed = parseMcpConfig(projectRaw, { file: projectFile, baseDirectory: options.workspace });
    warnings.push(...parsed.warnings);
    add(parsed.servers, "project");
  }
  add(claude?.local ?? [], "user");
  return { servers: [...byName.values()], warnings };
}
