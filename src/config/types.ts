import type { SecretValue } from "./secret.js";
import type { CloudSettings } from "../llm/cloud/cloud-options.js";
import type { ApprovalSettings } from "../tools/approval.js";
import type { PermissionRule } from "../security/permission-rules.js";
import type { SandboxMode } from "../security/security-decision.js";
import type { BudgetLimits, SpendCapLimits } from "../security/settings-schema.js";
import type { TelemetrySetting } from "../telemetry/telemetry-config.js";
import type { ContextSettings } from "../context/context-settings.js";

export type ProviderName = "anthropic" | "openai" | "openai-responses" | "gemini" | "azure" | "bedrock" | "vertex" | "mock";
export const providerNames: readonly ProviderName[] = ["anthropic", "openai", "openai-responses", "gemini", "azure", "bedrock", "vertex", "mock"];

export type ToolProtocol = "xml" | "native";
export type OnAskPolicy = "deny" | "fail";

/**
 * The options of `cairn run` as commander hands them over (values still strings
 * where the user typed them); `resolveSettings` validates them.
 */
export interface CliFlags {
  cwd?: string | undefined;
  provider?: string | undefined;
  baseUrl?: string | undefined;
  model?: string | undefined;
  apiKey?: string | undefined;
  profile?: string | undefined;
  toolProtocol?: string | undefined;
  yes?: boolean | undefined;
  json?: boolean | undefined;
  maxMistakes?: string | number | undefined;
  parallelTools?: boolean | undefined;
  plan?: boolean | undefined;
  dataDir?: string | undefined;
  /** Seconds (`30`), or with a unit: `500ms`, `30s`, `2m`. */
  askTimeout?: string | number | undefined;
  onAsk?: string | undefined;
  allowOutsideWrites?: boolean | undefined;
  trust?: boolean | undefined;
  /** Security (#14): sandbox, outside reads, the project's base URL, rules, budgets. */
  sandbox?: string | undefined;
  sandboxNetwork?: boolean | undefined;
  allowOutsideReads?: boolean | undefined;
  allowBaseUrl?: string | undefined;
  allowedTools?: string[] | undefined;
  askTools?: string[] | undefined;
  disallowedTools?: string[] | undefined;
  maxRequests?: string | number | undefined;
  maxTokens?: string | number | undefined;
  maxCost?: string | number | undefined;
  maxTime?: string | number | undefined;
  maxToolCalls?: string | number | undefined;
  /** False with `--no-checkpoints` (commander sets true when the switch is absent). */
  checkpoints?: boolean | undefined;
  /** `default`, `acceptEdits`, `plan`, `auto` or `bypassPermissions` (as `--yes`). */
  permissionMode?: string | undefined;
  /** Auto mode's judge model. */
  judgeModel?: string | undefined;
}

/** Auto mode (docs/security.md): a model judges each action that would be asked. */
export interface AutoModeSettings {
  enabled: boolean;
  /** Undefined: a small, cheap model of the provider in use (src/tools/auto-mode/judge-model.ts). */
  model: string | undefined;
  /** The judge's own budget for one run: tokens in and out, and US dollars. */
  maxTokens: number;
  maxCost: number | undefined;
  /** Longest wait for one judgement. */
  timeoutMs: number;
}

/** `true` means "run without asking": the tools' own approval settings. */
export type AutoApproveSettings = ApprovalSettings;

export const autoApproveKeys = ["readInside", "readOutside", "editInside", "editOutside", "commandsSafe", "commandsAll", "mcp", "webFetch"] as const satisfies ReadonlyArray<keyof AutoApproveSettings>;

/** Overrides for one entry of the model catalogue; unset fields keep the catalogue's values. */
export interface ModelOverride {
  contextWindow?: number | undefined;
  maxOutputTokens?: number | undefined;
  inputPrice?: number | undefined;
  outputPrice?: number | undefined;
  cacheReadPrice?: number | undefined;
  cacheWritePrice?: number | undefined;
  supportsImages?: boolean | undefined;
  supportsReasoning?: boolean | undefined;
}

/** A named bundle of provider settings, selected with `profile` or `--profile`. */
export interface ProviderProfile {
  provider?: ProviderName | undefined;
  baseUrl?: string | undefined;
  model?: string | undefined;
  /** Only honoured in the user config; a project config never holds keys. */
  apiKey?: string | undefined;
  toolProtocol?: ToolProtocol | undefined;
  /** The model's context window and output limit with this profile (e.g. a local model). */
  contextWindow?: number | undefined;
  maxOutputTokens?: number | undefined;
  azure?: CloudSettings["azure"];
  bedrock?: CloudSettings["bedrock"];
  vertex?: CloudSettings["vertex"];
}

/** `managed`: Claude Code's managed settings file (an administrator's; nothing overrides it). */
export type SettingSource = "managed" | "flag" | "env" | "project" | "user" | "default" | `profile:${string}`;

/** The settings files cairn reads, highest precedence first (docs/configuration.md). */
export type SettingsFileKind = "managed" | "claude-local" | "claude-project" | "cairn-project" | "claude-user" | "cairn-user";

/** Whose a settings file is: an administrator's, the project's (trusted or not), or the user's own. */
export type SettingsScope = "managed" | "project" | "user";

/** Where a notification goes: picked from the terminal (`auto`), a terminal escape sequence, the bell, the desktop's `notify-send`, or nowhere. */
export type NotificationChannel = "auto" | "terminal" | "osc9" | "osc777" | "bell" | "notify-send" | "off";

/** Claude Code's `statusLine`: a command whose output the UI shows as its status line. */
export interface StatusLineSetting {
  type: "command";
  command: string;
  padding?: number | undefined;
}

/** One settings file cairn looked for, whether it exists, and the Claude Code hooks it holds. */
export interface SettingsFileSummary {
  path: string;
  kind: SettingsFileKind;
  scope: SettingsScope;
  present: boolean;
  /** A Claude Code file's `hooks` (cairn's own files' hooks are in `ResolvedSettings.hooks`); a project's wait for trust in src/hooks. */
  claudeHooks?: Record<string, HookSetting> | undefined;
}

export interface TrustState {
  /** The real path of the project folder (cwd). */
  folder: string;
  trusted: boolean;
  /**
   * What the project asks for that needs trust (e.g. `autoApprove.commandsAll`,
   * `hooks`, `.cairn/mcp.json`). Non-empty while untrusted means those were dropped;
   * the TUI asks only when this is non-empty.
   */
  gated: string[];
  /** A base URL from the untrusted project's config that would receive the key: headless runs stop naming it (exit 2). */
  blockedBaseUrl?: string | undefined;
  /** Each held-back key with the project file that held it (what `gated` lists, by file). */
  heldBack: Array<{ key: string; file: string }>;
}

/** One entry of the `lsp` settings block (src/lsp/server-specs.ts reads it). */
export interface LspServerSetting {
  command?: string[] | undefined;
  extensions?: string[] | undefined;
  disabled?: boolean | undefined;
  initialization?: Record<string, unknown> | undefined;
}

/** One event's hooks in settings: a command, or Claude Code's `[{matcher, hooks: [{type, command, timeout}]}]`. */
export type HookSetting = string | Array<{ matcher?: string | undefined; hooks: Array<{ type?: string | undefined; command?: string | undefined; timeout?: number | undefined }> }>;

export interface ResolvedSettings {
  /** Absolute, existing workspace folder. */
  cwd: string;
  provider: ProviderName;
  model: string;
  baseUrl: string | undefined;
  /** Azure OpenAI, Bedrock and Vertex AI settings in force (issue 34); absent in settings built by hand. */
  cloud?: CloudSettings;
  /** Masked when printed; `requireApiKey` gives the value. */
  apiKey: SecretValue | undefined;
  /** The profile in use, if any. */
  profile: string | undefined;
  toolProtocol: ToolProtocol;
  yes: boolean;
  json: boolean;
  plan: boolean;
  parallelTools: boolean;
  /** A command's background processes outlive it (default false: they are ended with it). */
  keepBackgroundProcesses: boolean;
  /** New problems found by language servers are reported after each edit (#32; default true). */
  editDiagnostics: boolean;
  /** Language servers added, changed or turned off, by name (`typescript`, `pyright`, or a new one: docs/configuration.md). */
  lsp: Record<string, LspServerSetting>;
  /** Subagents (issue #17): at most this many children run at once (default 3). */
  subagents: { maxParallel: number };
  allowOutsideWrites: boolean;
  /** Checkpoints of the workspace (`checkpoints: false`, `--no-checkpoints` turn them off). */
  checkpoints: boolean;
  /** How the terminal UI calls the user back when a task needs an answer or ends (docs/tui.md). */
  notifications: { channel: NotificationChannel; afterSeconds: number };
  maxMistakes: number;
  dataDir: string;
  /** Undefined: wait as long as stdin is open. */
  askTimeoutMs: number | undefined;
  onAsk: OnAskPolicy;
  autoApprove: AutoApproveSettings;
  /** Absent in settings built by hand (tests): auto mode off. */
  autoMode?: AutoModeSettings;
  models: Record<string, ModelOverride>;
  /** Hook event (e.g. `TaskStart`) to the shell command it runs, or Claude Code's matcher groups (src/hooks). */
  hooks: Record<string, HookSetting>;
  stallTimeouts: { firstChunkMs: number; betweenChunksMs: number };
  /** SPEC T15: longest wait for MCP servers before a request (default 10 s). */
  mcpWaitMs: number;
  /** How long an edit waits at most for its new problems (`timeouts.diagnosticsMs`, default 5 s; #32). */
  diagnosticsWaitMs: number;
  retry: { delaysMs: number[] };
  /** Context management: compaction threshold (share of the window), what a summary keeps, or off. */
  /** Absent in settings built by hand (tests): the defaults apply. */
  context?: ContextSettings;
  /** The selected profile's model limits, applied over the catalogue and `models`. */
  modelLimits?: { contextWindow?: number; maxOutputTokens?: number };
  userConfigDir: string;
  userConfigPath: string;
  projectConfigPath: string;
  trust: TrustState;
  /** Permission rules from every source (deny > ask > allow whatever the source). */
  permissions: PermissionRule[];
  sandbox: SandboxMode;
  /** One line for stderr when commands run without the sandbox (turned off, or unavailable here); said once per run. */
  sandboxNotice?: string | undefined;
  /** The sandbox should be on but bubblewrap cannot run here: commands that are not known read-only are asked, even with --yes. */
  sandboxUnavailable: boolean;
  sandboxNetwork: boolean;
  allowOutsideReads: boolean;
  /** Secret-looking environment names passed to child processes anyway. */
  allowEnv: string[];
  budget: BudgetLimits;
  /** Spend caps across tasks (#36): US dollars per UTC day and month, for this user (data folder) or fleet (Redis). */
  spendCap?: SpendCapLimits;
  /** OpenTelemetry's settings block (#36); the OTEL_* variables win over it. */
  telemetry?: TelemetrySetting;
  /** Where each value came from, by dotted key (`model`, `autoApprove.editInside`, `models.gpt-x`). */
  sources: Record<string, SettingSource>;
  /** The exact flag, variable or file behind each source, by the same keys. */
  sourceDetails: Record<string, string>;
  /** Every settings file cairn looked for, highest precedence first (managed, Claude Code's and cairn's, project then user). */
  settingsFiles: SettingsFileSummary[];
  /** Claude Code's user folder (`$CLAUDE_CONFIG_DIR`, else `~/.claude`). */
  claudeUserDir: string;
  /** Claude Code's state file (`~/.claude.json`), read for its MCP servers only (src/mcp/config.ts). */
  claudeStateFile: string;
  /**
   * Variables set for commands (`env` in the settings files): the user's, a trusted project's;
   * secret-looking names only when `allowEnv` names them. Each name's source is under `env.NAME`.
   */
  environment: Record<string, string>;
  /** Claude Code's `sandbox.excludedCommands`: commands run outside the sandbox (user files, managed, a trusted project). Source: `unsandboxedCommands`. */
  unsandboxedCommands: string[];
  /** Claude Code's `statusLine`, kept for the UI (a project's only once trusted). Source: `statusLine`. */
  statusLine?: StatusLineSetting | undefined;
  /** Keys of the settings files that cairn does not support, each with its file and why (shown by `cairn config`). */
  unsupportedSettings: Array<{ key: string; file: string; why: string }>;
  warnings: string[];
}
