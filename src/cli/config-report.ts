/**
 * What `cairn config` prints: every setting with the file (or flag, or
 * variable) it came from, the permission rules and hooks each with its file,
 * the settings files read, what an untrusted project had held back, and what
 * cairn does not support. Keys and environment values are never printed.
 */
import type { ResolvedSettings } from "../config/index.js";
import type { HookDefinition } from "../hooks/hook-definition.js";

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
  const chosen = (key: string): boolean => settings.sources[key] !== undefined && settings.sources[key] !== "default" && settings.sources[key] !== "flag";
  return [
    row("provider", settings.provider),
    row("model", settings.model),
    row("baseUrl", settings.baseUrl ?? "(provider default)"),
    { key: "apiKey", value: apiKey, source: describeSource(settings, "apiKey") },
    // The cloud provider's settings in force (issue 34): endpoint, deployment, region, project.
    ...Object.entries(settings.cloud ?? {}).flatMap(([block, values]: [string, Record<string, unknown> | undefined]) => Object.entries(values ?? {}).map(([key, value]) => row(`${block}.${key}`, value))),
    row("profile", settings.profile ?? "(none)"),
    row("toolProtocol", settings.toolProtocol),
    row("maxMistakes", settings.maxMistakes),
    row("parallelTools", settings.parallelTools),
    // Run options, shown when a settings file sets them (a permission mode).
    ...(chosen("yes") ? [row("yes", settings.yes)] : []),
    ...(chosen("plan") ? [row("plan", settings.plan)] : []),
    row("allowOutsideWrites", settings.allowOutsideWrites),
    row("allowOutsideReads", settings.allowOutsideReads),
    row("sandbox", settings.sandbox),
    row("sandboxNetwork", settings.sandboxNetwork),
    ...(settings.unsandboxedCommands.length > 0 ? [row("unsandboxedCommands", settings.unsandboxedCommands)] : []),
    { key: "allowEnv", value: formatValue(settings.allowEnv), source: describeSource(settings, "allowEnv") || "default" },
    ...Object.keys(settings.environment).map((name) => ({ key: `env.${name}`, value: "set (value not shown)", source: describeSource(settings, `env.${name}`) })),
    ...Object.entries(settings.budget).map(([key, value]) => row(`budget.${key}`, value)),
    row("keepBackgroundProcesses", settings.keepBackgroundProcesses),
    row("checkpoints", settings.checkpoints),
    row("dataDir", settings.dataDir),
    row("askTimeoutMs", settings.askTimeoutMs ?? "(none while stdin is open)"),
    row("onAsk", settings.onAsk),
    ...Object.entries(settings.autoApprove).map(([key, value]) => row(`autoApprove.${key}`, value)),
    row("timeouts.firstChunkMs", settings.stallTimeouts.firstChunkMs),
    row("timeouts.betweenChunksMs", settings.stallTimeouts.betweenChunksMs),
    row("retry.delaysMs", settings.retry.delaysMs),
    ...Object.entries(settings.models).map(([id, value]) => row(`models.${id}`, value)),
    ...(settings.statusLine === undefined ? [] : [row("statusLine", settings.statusLine.command)]),
  ];
}

function table(entries: ReadonlyArray<readonly string[]>, indent = "  "): string[] {
  const widths = entries[0]?.map((_, column) => Math.min(44, Math.max(...entries.map((entry) => (entry[column] ?? "").length))) + 2) ?? [];
  // A cell wider than its column (a long hook command) still gets two spaces before the next one.
  const cellText = (cell: string, column: number, last: boolean): string => (last ? cell : cell.length + 2 > (widths[column] ?? 0) ? `${cell}  ` : cell.padEnd(widths[column] ?? 0));
  return entries.map((entry) => `${indent}${entry.map((cell, column) => cellText(cell, column, column === entry.length - 1)).join("")}`.trimEnd());
}

function ruleLines(settings: ResolvedSettings): string[] {
  if (settings.permissions.length === 0) return ["permission rules: none"];
  const ordered = (["deny", "ask", "allow"] as const).flatMap((decision) => settings.permissions.filter((rule) => rule.decision === decision));
  return ["permission rules (deny wins over ask over allow, whatever the file):", ...table(ordered.map((rule) => [rule.decision, rule.text, rule.source]))];
}

function hookLines(settings: ResolvedSettings, hooks: readonly HookDefinition[]): string[] {
  if (hooks.length === 0) return ["hooks: none"];
  const waiting = (hook: HookDefinition): string => (hook.scope === "project" && !settings.trust.trusted ? "  (held: folder not trusted)" : "");
  return [
    "hooks:",
    ...table(hooks.map((hook) => [`${hook.event}${hook.matcher === undefined ? "" : ` [${hook.matcher}]`}`, hook.origin.kind === "executable" ? hook.origin.file : hook.command, `${hook.origin.file}${waiting(hook)}`])),
  ];
}

export function textReport(settings: ResolvedSettings, hooks: readonly HookDefinition[]): string {
  const settingRows = rows(settings);
  const lines = [`cairn settings for ${settings.cwd}`, "", ...table(settingRows.map((entry) => [entry.key, entry.value, entry.source])), ""];
  lines.push(...ruleLines(settings), "", ...hookLines(settings, hooks), "");
  lines.push("settings files (highest precedence first):", ...table(settings.settingsFiles.map((file) => [file.kind, file.path, file.present ? "read" : "not present"])));
  lines.push("", `user config:    ${settings.userConfigPath}`, `project config: ${settings.projectConfigPath}`);
  const { trust } = settings;
  if (trust.trusted) {
    lines.push(`folder trust:   trusted`);
  } else {
    const held = trust.gated.length > 0 ? ` (held back: ${trust.gated.join(", ")}; run once with --trust to allow)` : "";
    lines.push(`folder trust:   not trusted${held}`);
  }
  if (trust.heldBack.length > 0) lines.push("", "held back until this folder is trusted:", ...table(trust.heldBack.map((entry) => [entry.key, entry.file])));
  if (settings.unsupportedSettings.length > 0) {
    lines.push("", "not supported by cairn (ignored):", ...table(settings.unsupportedSettings.map((entry) => [entry.key, entry.file, entry.why])));
  }
  if (settings.warnings.length > 0) {
    lines.push("", "warnings:", ...settings.warnings.map((warning) => `  - ${warning}`));
  }
  return `${lines.join("\n")}\n`;
}

export function jsonReport(settings: ResolvedSettings, hooks: readonly HookDefinition[], problem: string | undefined): string {
  // SecretValue serialises itself masked; the extra fields say where it came from.
  // `json` is an option of one run, never configured. Environment values are not shown (they may be secret).
  const { sources, sourceDetails, warnings, trust, apiKey, json: _json, environment, ...values } = settings;
  const report = {
    settings: { ...values, environment: Object.keys(environment) },
    apiKey: apiKey === undefined ? { set: false } : { set: true, masked: apiKey.masked(), from: sourceDetails["apiKey"] },
    hooks: hooks.map((hook) => ({ event: hook.event, matcher: hook.matcher ?? null, command: hook.command, scope: hook.scope, file: hook.origin.file })),
    sources,
    sourceDetails,
    trust,
    warnings,
    ...(problem === undefined ? {} : { problem }),
  };
  const keepUnset = (_key: string, value: unknown): unknown => (value === undefined ? null : value);
  return `${JSON.stringify(report, keepUnset, 2)}\n`;
}
