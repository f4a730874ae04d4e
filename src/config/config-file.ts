/**
 * Reading one `config.json` (user or project): JSON syntax, then the schema.
 * Wrong values are errors naming the file and the key; unknown keys are only
 * warnings, so a config written for a newer cairn still loads.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { ConfigError } from "./errors.js";
import { autoApproveKeys, providerNames } from "./types.js";
import { securitySettingsSchema } from "../security/settings-schema.js";
import { environmentSchema, permissionsSchema } from "./permissions-schema.js";
import { cloudSettingsSchema } from "./cloud-settings.js";

const positiveInteger = z.number().int().positive();
const milliseconds = z.number().int().nonnegative();

const profileSchema = z.strictObject({
  provider: z.enum(providerNames).optional(),
  baseUrl: z.url().optional(),
  model: z.string().min(1).optional(),
  apiKey: z.string().min(1).optional(),
  toolProtocol: z.enum(["xml", "native"]).optional(),
  /** The model's limits for this profile (a local model's window), over the catalogue's. */
  contextWindow: positiveInteger.optional(),
  maxOutputTokens: positiveInteger.optional(),
  ...cloudSettingsSchema,
});

/** Context management (src/context): compaction threshold, what a summary keeps, or off. */
const contextSchema = z.strictObject({
  enabled: z.boolean().optional(),
  threshold: z.number().gt(0).max(1).optional(),
  filesKept: z.number().int().nonnegative().optional(),
  fileCharsKept: z.number().int().nonnegative().optional(),
  turnsKept: positiveInteger.optional(),
  checklistReminderEvery: z.number().int().nonnegative().optional(),
});

const autoApproveSchema = z.strictObject(Object.fromEntries(autoApproveKeys.map((key) => [key, z.boolean().optional()])) as Record<(typeof autoApproveKeys)[number], z.ZodOptional<z.ZodBoolean>>);

const modelOverrideSchema = z.strictObject({
  contextWindow: positiveInteger.optional(),
  maxOutputTokens: positiveInteger.optional(),
  inputPrice: z.number().nonnegative().optional(),
  outputPrice: z.number().nonnegative().optional(),
  cacheReadPrice: z.number().nonnegative().optional(),
  cacheWritePrice: z.number().nonnegative().optional(),
  supportsImages: z.boolean().optional(),
  supportsReasoning: z.boolean().optional(),
});

export const hookGroupSchema = z.looseObject({
  matcher: z.string().optional(),
  hooks: z.array(z.looseObject({ type: z.string().optional(), command: z.string().optional(), timeout: z.number().positive().optional() })),
});

/** The `hooks` value of a settings file: the old `{"TaskStart": "cmd"}` form or Claude Code's matcher groups. */
export const hooksSchema = z.record(z.string(), z.union([z.string().min(1), z.array(hookGroupSchema)]));

/** One language server of the `lsp` block (docs/configuration.md): a new one, or a change to a built-in one. */
const lspServerSchema = z.strictObject({
  command: z.array(z.string().min(1)).min(1).optional(),
  extensions: z.array(z.string().min(1)).optional(),
  disabled: z.boolean().optional(),
  initialization: z.record(z.string(), z.unknown()).optional(),
});

export const configFileSchema = z.strictObject({
  $schema: z.string().optional(),
  provider: z.enum(providerNames).optional(),
  model: z.string().min(1).optional(),
  baseUrl: z.url().optional(),
  apiKey: z.string().min(1).optional(),
  profile: z.string().min(1).optional(),
  profiles: z.record(z.string(), profileSchema).optional(),
  toolProtocol: z.enum(["xml", "native"]).optional(),
  maxMistakes: positiveInteger.optional(),
  parallelTools: z.boolean().optional(),
  keepBackgroundProcesses: z.boolean().optional(),
  lsp: z.record(z.string(), lspServerSchema).optional(),
  editDiagnostics: z.boolean().optional(),
  checkpoints: z.boolean().optional(),
  notifications: z.strictObject({ channel: z.enum(["auto", "terminal", "osc9", "osc777", "bell", "notify-send", "off"]).optional(), afterSeconds: z.number().min(0).max(3600).optional() }).optional(),
  allowOutsideWrites: z.boolean().optional(),
  dataDir: z.string().min(1).optional(),
  askTimeoutMs: milliseconds.optional(),
  onAsk: z.enum(["deny", "fail"]).optional(),
  autoApprove: autoApproveSchema.optional(),
  models: z.record(z.string(), modelOverrideSchema).optional(),
  // The old `{"TaskStart": "cmd"}` form, or Claude Code's: event -> [{matcher, hooks: [{type, command, timeout}]}].
  hooks: hooksSchema.optional(),
  timeouts: z.strictObject({ firstChunkMs: positiveInteger.optional(), betweenChunksMs: positiveInteger.optional(), mcpWaitMs: milliseconds.optional(), diagnosticsMs: milliseconds.optional() }).optional(),
  retry: z.strictObject({ delaysMs: z.array(milliseconds).max(20) }).optional(),
  /** Subagents (issue #17): how many children run at once. */
  subagents: z.strictObject({ maxParallel: positiveInteger.max(16).optional() }).optional(),
  /** Auto mode's judge (docs/security.md): its model, its own token and cost budget per run, how long one judgement may take. */
  autoMode: z.strictObject({ model: z.string().min(1).optional(), maxTokens: positiveInteger.optional(), maxCost: z.number().positive().optional(), timeoutMs: positiveInteger.optional() }).optional(),
  ...securitySettingsSchema,
  // Claude Code's block as well: its defaultMode is honoured, additionalDirectories reported as not supported.
  permissions: permissionsSchema.optional(),
  /** Variables set for commands (a project's once trusted; secret-looking names only with allowEnv). */
  env: environmentSchema.optional(),
  context: contextSchema.optional(),
  /** OpenTelemetry (#36, docs/telemetry.md): off unless an endpoint is named here or in OTEL_EXPORTER_OTLP_ENDPOINT. */
  telemetry: z
    .strictObject({
      endpoint: z.url().optional(),
      protocol: z.enum(["http/json", "http/protobuf"]).optional(),
      headers: z.record(z.string(), z.string()).optional(),
      serviceName: z.string().min(1).optional(),
      resourceAttributes: z.record(z.string(), z.string()).optional(),
      includeContent: z.boolean().optional(),
    })
    .optional(),
  /** Azure OpenAI, Amazon Bedrock, Google Vertex AI: where their models live (issue 34). */
  ...cloudSettingsSchema,
});

export type ConfigFile = z.infer<typeof configFileSchema>;

export interface LoadedConfigFile {
  path: string;
  config: ConfigFile;
  warnings: string[];
}

export function describePath(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0 ? "(top level)" : path.map(String).join(".");
}

/** Removes the unknown keys zod reported so the rest of the file can still be used. */
function withoutKeys(raw: unknown, path: ReadonlyArray<PropertyKey>, keys: readonly string[]): void {
  let target: unknown = raw;
  for (const step of path) {
    if (typeof target !== "object" || target === null) return;
    target = (target as Record<PropertyKey, unknown>)[step];
  }
  if (typeof target !== "object" || target === null) return;
  for (const key of keys) delete (target as Record<string, unknown>)[key];
}

/** Validates already-parsed JSON; `file` names the source in messages. */
export function parseConfigFile(raw: unknown, file: string): LoadedConfigFile {
  const warnings: string[] = [];
  let result = configFileSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.filter((issue) => issue.code !== "unrecognized_keys");
    if (problems.length > 0) {
      const lines = problems.map((issue) => `  ${describePath(issue.path)}: ${issue.message}`);
      throw new ConfigError(`${file} has invalid settings:\n${lines.join("\n")}\nFix or remove these keys.`);
    }
    for (const issue of result.error.issues) {
      if (issue.code !== "unrecognized_keys") continue;
      const where = issue.path.length === 0 ? "" : ` in ${describePath(issue.path)}`;
      warnings.push(`${file}: unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((key) => `"${key}"`).join(", ")}${where} ignored`);
      withoutKeys(raw, issue.path, issue.keys);
    }
    result = configFileSchema.safeParse(raw);
    if (!result.success) throw new ConfigError(`${file} has invalid settings: ${result.error.message}`);
  }
  return { path: file, config: result.data, warnings };
}

/** Whether the first `length` characters of `text` already contain a JSON syntax error. */
function brokenWithin(text: string, length: number): boolean {
  try {
    JSON.parse(text.slice(0, length));
    return false;
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    if (message.includes("Unexpected end of JSON input")) return false;
    const position = /at position (\d+)/.exec(message)?.[1];
    return position === undefined || Number(position) < length;
  }
}

/**
 * Where the JSON broke, as line and column. V8's own message quotes the text
 * around the error, which could be an API key in the user config, so it is not
 * shown; the spot is found by bisecting prefixes instead.
 */
export function jsonErrorLocation(text: string): string {
  let low = 1;
  let high = text.length;
  if (!brokenWithin(text, high)) return " (it ends too early)";
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (brokenWithin(text, middle)) high = middle;
    else low = middle + 1;
  }
  const before = text.slice(0, low - 1);
  const line = before.split("\n").length;
  const column = low - 1 - before.lastIndexOf("\n");
  return ` (line ${line}, column ${column})`;
}

/** Reads a config file; undefined when it does not exist. */
export async function readConfigFile(file: string): Promise<LoadedConfigFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ConfigError(`${file} is not valid JSON${jsonErrorLocation(text)}. Fix the file or remove it.`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ConfigError(`${file} must hold a JSON object, like {"model": "..."}.`);
  }
  return parseConfigFile(raw, file);
}
