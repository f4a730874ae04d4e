/**
 * What a program passes to `startTask` / `resumeTask`, and how it becomes the
 * same resolved settings `cairn run` uses: the user's and the project's
 * configuration files (Claude Code's included) are read as the CLI reads them,
 * and these options take the place of its flags.
 */
import type { CliFlags, ProviderName, ResolvedSettings, ToolProtocol } from "../config/index.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import type { ToolDefinition } from "../tools/tool-definition.js";
import type { HookCallbacks } from "../hooks/callback-hooks.js";
import type { AskResponse } from "../task/contracts/messages.js";
import type { AskEvent } from "./events.js";

/** As in the Claude Agent SDK: ask as configured, approve edits in the workspace, approve everything that --yes approves, plan only, or let a model judge what would be asked (auto mode, docs/security.md). */
export type PermissionMode = "default" | "acceptEdits" | "bypassPermissions" | "plan" | "auto";

export interface ToolUseRequest {
  /** The tool's name as the model called it (`execute_command`, `write_to_file`, an MCP or custom tool's name). */
  toolName: string;
  /** The tool's card: its input as cairn shows it (path, diff, command, arguments ...). */
  input: Record<string, unknown>;
  /** The ask itself (its id, text and meta). */
  ask: AskEvent;
  /** Aborted when the task is. */
  signal: AbortSignal;
}

export type ToolUseDecision = { behavior: "allow" } | { behavior: "deny"; message?: string };

/** Decides an approval (a tool, a command, an MCP tool) in code. */
export type CanUseTool = (request: ToolUseRequest) => Promise<ToolUseDecision> | ToolUseDecision;

/** An answer to an ask: approve, refuse, or a message (a follow-up question's answer). */
export type AskAnswer = AskResponse | "yes" | "no";

export interface BudgetOptions {
  maxRequests?: number;
  maxTokens?: number;
  /** US dollars. */
  maxCost?: number;
  /** As `--max-time`: seconds, or with a unit (`90s`, `10m`). */
  maxTime?: number | string;
  maxToolCalls?: number;
}

export interface TaskOptions {
  /** The workspace (default: the process's current folder). */
  cwd?: string;
  provider?: ProviderName;
  model?: string;
  /** Default: the environment's key for the provider, as the CLI finds it. Never logged. */
  apiKey?: string;
  baseUrl?: string;
  /** A named provider profile from the configuration. */
  profile?: string;
  toolProtocol?: ToolProtocol;
  permissionMode?: PermissionMode;
  /** Permission rules in Claude Code's syntax (`Bash(npm test:*)`, `Read`, `mcp__server__tool`), beside the configured ones. */
  allowedTools?: string[];
  disallowedTools?: string[];
  askTools?: string[];
  /** The OS sandbox for commands: `workspace-write` (default where bubblewrap works), `read-only` or `off`. */
  sandbox?: "workspace-write" | "read-only" | "off";
  sandboxNetwork?: boolean;
  budget?: BudgetOptions;
  /** MCP servers in the `mcpServers` format of `.mcp.json`, beside the configured ones. */
  mcpServers?: Record<string, unknown>;
  /** Hooks as in-process callbacks, in the Claude Agent SDK's shape (`{ PreToolUse: [{ matcher: "Bash", hooks: [fn] }] }`), beside the configured command hooks. */
  hooks?: HookCallbacks;
  /** Tools defined in code (built by `tool`), each name once. */
  tools?: ToolDefinition[];
  /** Text appended to the system prompt. */
  appendSystemPrompt?: string;
  /** Where tasks and checkpoints are kept (default `$CAIRN_HOME` or `~/.cairn`). */
  dataDir?: string;
  /** Checkpoints of the workspace (default true). */
  checkpoints?: boolean;
  parallelTools?: boolean;
  maxMistakes?: number;
  /** Trust the workspace's project configuration (auto-approval, hooks, MCP servers), as `--trust`. */
  trust?: boolean;
  /** Decides approvals in code; without it they follow `unansweredAsks`. */
  canUseTool?: CanUseTool;
  /** Answers any ask in code (a follow-up question, a failed request); undefined leaves it to `unansweredAsks`. */
  onAsk?: (ask: AskEvent, signal: AbortSignal) => Promise<AskAnswer | undefined> | AskAnswer | undefined;
  /**
   * An ask that neither callback answered: `deny` (default) refuses what needs
   * approval and lets the model decide questions itself, as `cairn run --on-ask
   * deny` does; `fail` ends the task with an `UnansweredAskError`; `wait` waits
   * for `task.answer(id, ...)` (the ask is an event like any other).
   */
  unansweredAsks?: "deny" | "fail" | "wait";
  /** The environment the settings and the tools' processes start from (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** A W3C trace context (`traceparent`) the task's trace continues when OpenTelemetry is on (docs/telemetry.md). */
  traceparent?: string;
  /** For `provider: "mock"`: the scripted model's scenario, or the path of its file. */
  scenario?: Scenario | string;
  /** Aborting it aborts the task (as `task.abort()`). */
  signal?: AbortSignal;
}

/** The settings of a task started with these options. */
export async function settingsFor(options: TaskOptions): Promise<ResolvedSettings> {
  const { resolveSettings, ConfigError } = await import("../config/index.js");
  const { environmentWithSecrets } = await import("../security/secret-environment.js");
  const { blockedBaseUrlMessage } = await import("../security/cli-options.js");
  const mode = options.permissionMode ?? "default";
  const budget = options.budget ?? {};
  const flags: CliFlags = {
    cwd: options.cwd,
    provider: options.provider,
    model: options.model,
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    profile: options.profile,
    toolProtocol: options.toolProtocol,
    yes: mode === "bypassPermissions" ? true : undefined,
    plan: mode === "plan" ? true : undefined,
    permissionMode: mode === "auto" ? "auto" : undefined,
    dataDir: options.dataDir,
    sandbox: options.sandbox,
    sandboxNetwork: options.sandboxNetwork,
    allowedTools: options.allowedTools,
    disallowedTools: options.disallowedTools,
    askTools: options.askTools,
    maxRequests: budget.maxRequests,
    maxTokens: budget.maxTokens,
    maxCost: budget.maxCost,
    maxTime: budget.maxTime,
    maxToolCalls: budget.maxToolCalls,
    checkpoints: options.checkpoints,
    parallelTools: options.parallelTools,
    maxMistakes: options.maxMistakes,
  };
  const settings = await resolveSettings({ flags, env: options.env ?? environmentWithSecrets(), cwd: process.cwd(), trust: options.trust === true });
  if (settings.trust.blockedBaseUrl !== undefined) throw new ConfigError(blockedBaseUrlMessage(settings.trust.blockedBaseUrl, settings.projectConfigPath));
  if (mode !== "acceptEdits") return settings;
  return { ...settings, autoApprove: { ...settings.autoApprove, editInside: true } };
}
