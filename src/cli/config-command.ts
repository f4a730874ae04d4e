/**
 * `cairn config`: the resolved settings and where each came from, API keys
 * masked. Exits 2 when a setting is wrong or the key is missing, so it doubles
 * as a "is my setup ready?" check.
 */
import { environmentWithSecrets } from "../security/secret-environment.js";
import { CommanderError, type Command } from "commander";
import type { ResolvedSettings } from "../config/index.js";

interface ConfigCommandOptions {
  json?: boolean;
  cwd?: string;
  profile?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
}

interface Row {
  key: string;
  value: string;
  source: string;
}

function describeSource(settings: ResolvedSettings, key: string): string {
  const source = settings.sources[key];
  const detail = settings.sourceDetails[key];
  if (source === undefined) return "";
  if (source === "default") return "default";
  if (source.startsWith("profile:")) return detail ?? source;
  return detail === undefined ? source : `${source} ${detail}`;
}

function formatValue(value: unknown): string {
  if (value === undefined) return "(not set)";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

function rows(settings: ResolvedSettings): Row[] {
  const row = (key: string, value: unknown): Row => ({ key, value: formatValue(value), source: describeSource(settings, key) });
  const apiKey = settings.apiKey === undefined ? "(not set)" : `set, ${settings.apiKey.masked()}`;
  return [
    row("provider", settings.provider),
    row("model", settings.model),
    row("baseUrl", settings.baseUrl ?? "(provider default)"),
    { key: "apiKey", value: apiKey, source: describeSource(settings, "apiKey") },
    row("profile", settings.profile ?? "(none)"),
    row("toolProtocol", settings.toolProtocol),
    row("maxMistakes", settings.maxMistakes),
    row("parallelTools", settings.parallelTools),
    row("allowOutsideWrites", settings.allowOutsideWrites),
    row("allowOutsideReads", settings.allowOutsideReads),
    row("sandbox", settings.sandbox),
    row("sandboxNetwork", settings.sandboxNetwork),
    { key: "allowEnv", value: formatValue(settings.allowEnv), source: describeSource(settings, "allowEnv") || "default" },
    ...Object.entries(settings.budget).map(([key, value]) => row(`budget.${key}`, value)),
    { key: "permissions", value: `${settings.permissions.length} rules`, source: "see cairn permissions" },
    row("checkpoints", settings.checkpoints),
    row("dataDir", settings.dataDir),
    row("askTimeoutMs", settings.askTimeoutMs ?? "(none while stdin is open)"),
    row("onAsk", settings.onAsk),
    ...Object.entries(settings.autoApprove).map(([key, value]) => row(`autoApprove.${key}`, value)),
    row("timeouts.firstChunkMs", settings.stallTimeouts.firstChunkMs),
    row("timeouts.betweenChunksMs", settings.stallTimeouts.betweenChunksMs),
    row("retry.delaysMs", settings.retry.delaysMs),
    ...Object.entries(settings.models).map(([id, value]) => row(`models.${id}`, value)),
    ...Object.entries(settings.hooks).map(([name, value]) => row(`hooks.${name}`, value)),
  ];
}

function textReport(settings: ResolvedSettings): string {
  const table = rows(settings);
  const keyWidth = Math.max(...table.map((entry) => entry.key.length)) + 2;
  const valueWidth = Math.min(40, Math.max(...table.map((entry) => entry.value.length))) + 2;
  const lines = [`cairn settings for ${settings.cwd}`, ""];
  for (const entry of table) {
    lines.push(`  ${entry.key.padEnd(keyWidth)}${entry.value.padEnd(valueWidth)}${entry.source}`.trimEnd());
  }
  lines.push("", `user config:    ${settings.userConfigPath}`, `project config: ${settings.projectConfigPath}`);
  const { trust } = settings;
  if (trust.trusted) {
    lines.push(`folder trust:   trusted`);
  } else {
    const held = trust.gated.length > 0 ? ` (held back: ${trust.gated.join(", ")}; run once with --trust to allow)` : "";
    lines.push(`folder trust:   not trusted${held}`);
  }
  if (settings.warnings.length > 0) {
    lines.push("", "warnings:", ...settings.warnings.map((warning) => `  - ${warning}`));
  }
  return `${lines.join("\n")}\n`;
}

function jsonReport(settings: ResolvedSettings, problem: string | undefined): string {
  // SecretValue serialises itself masked; the extra fields say where it came from.
  // `yes`, `json` and `plan` are options of one run, never configured.
  const { sources, sourceDetails, warnings, trust, apiKey, yes: _yes, json: _json, plan: _plan, ...values } = settings;
  const report = {
    settings: values,
    apiKey: apiKey === undefined ? { set: false } : { set: true, masked: apiKey.masked(), from: sourceDetails["apiKey"] },
    sources,
    sourceDetails,
    trust,
    warnings,
    ...(problem === undefined ? {} : { problem }),
  };
  const keepUnset = (_key: string, value: unknown): unknown => (value === undefined ? null : value);
  return `${JSON.stringify(report, keepUnset, 2)}\n`;
}

function fail(message: string): never {
  process.stderr.write(`cairn: ${message}\n`);
  throw new CommanderError(2, "cairn.config", message);
}

export function registerConfigCommand(program: Command): void {
  program
    .command("config")
    .description("show the resolved settings and where each came from (API keys masked)")
    .option("--json", "print them as JSON")
    .option("--cwd <dir>", "project folder whose .cairn/config.json applies")
    .option("--profile <name>", "show the settings with this provider profile")
    .option("--provider <name>", "anthropic, openai, openai-responses, gemini or mock")
    .option("--model <id>", "model id")
    .option("--base-url <url>", "provider address")
    .action(async (options: ConfigCommandOptions) => {
      // Loaded here so `cairn --version` and `--help` stay fast.
      const { ConfigError, requireApiKey, resolveSettings } = await import("../config/index.js");
      let settings: ResolvedSettings;
      try {
        const { json: _json, ...flags } = options;
        settings = await resolveSettings({ flags, env: environmentWithSecrets(), cwd: process.cwd() });
      } catch (error) {
        if (error instanceof ConfigError) fail(error.message);
        throw error;
      }
      let problem: string | undefined;
      try {
        requireApiKey(settings);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        problem = error.message;
      }
      process.stdout.write(options.json === true ? jsonReport(settings, problem) : textReport(settings));
      if (problem !== undefined) fail(problem);
    });
}
