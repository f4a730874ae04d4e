/**
 * Claude Code's settings files (`~/.claude/settings.json`,
 * `.claude/settings.json`, `.claude/settings.local.json`, the managed file)
 * as cairn reads them. The keys cairn honours are checked: invalid JSON or a
 * wrong type is an error naming the file, the line or key, and what to fix.
 * Every other key is Claude Code's own and is ignored without a word.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { describePath, hooksSchema, jsonErrorLocation, type ConfigFile } from "./config-file.js";
import { ConfigError } from "./errors.js";
import { environmentSchema, permissionsSchema } from "./permissions-schema.js";
import { permissionsExtras } from "./cairn-settings.js";
import type { SettingsFile, SettingsFilePlace } from "./settings-files.js";
import { knownModelIds } from "../llm/models.js";

const claudeSettingsSchema = z.looseObject({
  model: z.string().min(1).optional(),
  env: environmentSchema.optional(),
  permissions: permissionsSchema.optional(),
  hooks: hooksSchema.optional(),
  statusLine: z.looseObject({ type: z.literal("command"), command: z.string().min(1), padding: z.number().int().nonnegative().optional() }).optional(),
  sandbox: z.looseObject({ enabled: z.boolean().optional(), excludedCommands: z.array(z.string().min(1)).optional() }).optional(),
  apiKeyHelper: z.string().optional(),
});

type ClaudeSettings = z.infer<typeof claudeSettingsSchema>;

/** Claude Code's model aliases, as the newest model of that family in cairn's catalogue; `default` leaves cairn's. */
export function claudeModelId(model: string): string | undefined {
  const alias = model.toLowerCase().replace(/\[1m\]$/, "");
  if (alias === "default") return undefined;
  const family = alias === "opusplan" ? "opus" : alias;
  if (!["opus", "sonnet", "haiku"].includes(family)) return model;
  return knownModelIds("anthropic").find((id) => id.includes(`-${family}-`)) ?? model;
}

function parse(place: SettingsFilePlace, text: string): ClaudeSettings {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ConfigError(`${place.path} is not valid JSON${jsonErrorLocation(text)}. Fix the file or remove it.`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ConfigError(`${place.path} must hold a JSON object, like {"permissions": {"deny": ["Bash(rm:*)"]}}.`);
  }
  const result = claudeSettingsSchema.safeParse(raw);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${describePath(issue.path)}: ${issue.message}`);
    throw new ConfigError(`${place.path} has invalid settings:\n${lines.join("\n")}\nFix these keys (they are Claude Code settings cairn reads too).`);
  }
  return result.data;
}

/** The managed file may force the sandbox on; elsewhere `enabled: true` asks for what cairn does by default. */
function sandboxSetting(place: SettingsFilePlace, enabled: boolean | undefined): ConfigFile["sandbox"] {
  if (enabled === false) return "off";
  if (enabled === true && place.kind === "managed") return "workspace-write";
  return undefined;
}

export async function readClaudeSettingsFile(place: SettingsFilePlace): Promise<SettingsFile | undefined> {
  let text: string;
  try {
    text = await readFile(place.path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError(`cannot read ${place.path}: ${(error as Error).message}`);
  }
  const settings = parse(place, text);
  const { allow, ask, deny } = settings.permissions ?? {};
  const sandbox = sandboxSetting(place, settings.sandbox?.enabled);
  const config: ConfigFile = {
    ...(settings.permissions === undefined ? {} : { permissions: { ...(allow ? { allow } : {}), ...(ask ? { ask } : {}), ...(deny ? { deny } : {}) } }),
    ...(sandbox === undefined ? {} : { sandbox }),
  };
  const extras = permissionsExtras(settings.permissions);
  const unsupported = [...extras.unsupported];
  if (settings.apiKeyHelper !== undefined) {
    unsupported.push({ key: "apiKeyHelper", why: "cairn does not run a program for its key; set the provider's key variable or the user config's apiKey" });
  }
  const claudeModel = settings.model === undefined ? undefined : claudeModelId(settings.model);
  return {
    ...place,
    config,
    ...(claudeModel === undefined ? {} : { claudeModel }),
    ...(extras.defaultMode === undefined ? {} : { defaultMode: extras.defaultMode }),
    disableBypass: extras.disableBypass,
    ...(settings.statusLine === undefined ? {} : { statusLine: { type: "command", command: settings.statusLine.command, ...(settings.statusLine.padding === undefined ? {} : { padding: settings.statusLine.padding }) } }),
    unsandboxedCommands: settings.sandbox?.excludedCommands ?? [],
    environment: { ...settings.env },
    ...(settings.hooks === undefined ? {} : { claudeHooks: settings.hooks }),
    unsupported,
    warnings: [],
  };
}
