/**
 * A subagent's tools: the parent's rules ("always allow" answers included)
 * and sandbox, resolved against the child's own folder when it has one; only
 * the tools its agent type names (never the parent's own conversation tools);
 * MCP tools only for types that may change things; the parent's tool hooks.
 */
import type { ResolvedSettings } from "../../config/index.js";
import type { Provider } from "../../llm/types.js";
import { PermissionRules } from "../../security/permission-rules.js";
import type { ToolExecutor } from "../../task/contracts/tool-executor.js";
import { builtinTools } from "../../tools/builtin-tools.js";
import { createToolExecutor } from "../../tools/create-tool-executor.js";
import type { ActionJudge } from "../../tools/auto-mode/judge-contract.js";
import type { McpPort } from "../../tools/mcp-port.js";
import type { WorkspaceOperations } from "../../tools/operations.js";
import type { LanguagePort } from "../../tools/language-port.js";
import type { LaunchPolicy } from "../../security/process-launch.js";
import { launchPolicyFor } from "../launch-policy.js";
import type { SessionSecurity } from "../security-wiring.js";
import type { AgentType } from "./agent-types.js";

const parentOnlyTools = new Set(["new_task", "plan_mode_respond", "use_subagents"]);

export function createChildToolExecutor(options: {
  settings: ResolvedSettings;
  security: SessionSecurity;
  type: AgentType;
  /** The child's folder: its own worktree (`isolated`) or the parent's workspace. */
  cwd: string;
  isolated: boolean;
  provider: Provider;
  subagentId: string;
  mcp?: { port?: McpPort | undefined; wrap(executor: ToolExecutor): ToolExecutor };
  hooks?: { wrapExecutor(executor: ToolExecutor): ToolExecutor };
  operations?: WorkspaceOperations;
  /** Auto mode's judge of the parent (issue 30): the child's asks are judged as the parent's are. */
  judge?: ActionJudge;
  /** The language servers of the child's folder (the parent's, or its worktree's own; #32). */
  languages?: (cwd: string, policy: LaunchPolicy) => LanguagePort | undefined;
}): ToolExecutor {
  const { settings, security, type, cwd, mcp } = options;
  const rules = options.isolated ? new PermissionRules(security.rules.rules, cwd) : security.rules;
  const launchPolicy = options.isolated ? launchPolicyFor(settings, { workspace: cwd, rules, readableInDataDir: security.outputFolder, baseEnvironment: security.launchPolicy.baseEnvironment }) : security.launchPolicy;
  const allTools = builtinTools.map((tool) => tool.name);
  const languages = options.languages?.(cwd, launchPolicy);
  const baseExecutor = createToolExecutor({
    ...(options.judge ? { judge: options.judge } : {}),
    ...(mcp?.port ? { mcp: mcp.port } : {}),
    ...(languages === undefined ? {} : { languages }),
    workspace: cwd,
    dataDir: settings.dataDir,
    approval: settings.autoApprove,
    yes: settings.yes,
    allowOutsideWrites: settings.allowOutsideWrites,
    protocol: settings.toolProtocol,
    parallelTools: settings.parallelTools,
    rules,
    allowOutsideReads: settings.allowOutsideReads,
    launchPolicy,
    outputFolder: security.outputFolder,
    sandboxUnavailable: settings.sandboxUnavailable,
    userConfigDir: settings.userConfigDir,
    supportsImages: options.provider.model.supportsImages,
    keepBackgroundProcesses: settings.keepBackgroundProcesses,
    onlyTools: (type.tools ?? allTools).filter((name) => !parentOnlyTools.has(name)),
    readOnlyCommands: type.readOnly,
    subagent: { subagentId: options.subagentId },
    ...(options.operations ? { operations: options.operations } : {}),
  });
  const withMcp = mcp ? mcp.wrap(baseExecutor) : baseExecutor;
  return options.hooks ? options.hooks.wrapExecutor(withMcp) : withMcp;
}
