/**
 * The ToolExecutor (SPEC T19): the Task hands every tool block here. It
 * checks the tool exists and is allowed in the mode, that required
 * parameters are present, then runs the tool; tool failures come back as
 * outcomes, never as exceptions.
 */
import { join } from "node:path";
import { homedir } from "node:os";
import { invalidArgumentsParam } from "../llm/native-tool-calls.js";
import type { ToolUseBlock } from "../parser/types.js";
import type { Mode, ToolCallContext, ToolExecutor, ToolOutcome } from "../task/contracts/tool-executor.js";
import type { ActionJudge } from "./auto-mode/judge-contract.js";
import { ApprovalPolicy, defaultApprovalSettings, type ApprovalSettings } from "./approval.js";
import { builtinTools } from "./builtin-tools.js";
import { CommandRegistry } from "./command/command-registry.js";
import { describeError } from "./file-io.js";
import { FileTracker } from "./file-tracker.js";
import type { McpPort } from "./mcp-port.js";
import type { LanguagePort } from "./language-port.js";
import { invalidArgumentsJson, missingParameter, notInMode, toolError, unknownTool } from "./responses.js";
import type { ToolDefinition, ToolRuntime, ToolRuntimeOptions } from "./tool-definition.js";
import { availableIn, nativeSchema, promptSection, xmlFormatIntroduction } from "./tool-schema.js";
import { WorkspaceGuard } from "./workspace-guard.js";
import { workspacePathOracle } from "./path-facts.js";
import { defaultUserConfigDir } from "../config/paths.js";
import type { PermissionRules } from "../security/permission-rules.js";
import type { LaunchPolicy } from "../security/process-launch.js";
import { checklistReporter, taskProgressParameter, taskProgressSection } from "./task-progress.js";
import { localOperations, type WorkspaceOperations } from "./operations.js";
import { readOnlyCommandRefusal } from "./read-only-commands.js";
import { createUseSubagentsTool } from "./builtin/use-subagents.js";
import type { ChildTaskFactory } from "../task/contracts/subagents.js";
import type { ProcessPort } from "./process/start-background.js";

export type { ApprovalSettings } from "./approval.js";
export { defaultApprovalSettings } from "./approval.js";
export type { ToolDefinition } from "./tool-definition.js";

export interface ToolExecutorOptions {
  workspace: string;
  /** The sandbox should be on but cannot run here: commands that are not known read-only are asked, --yes or not. */
  sandboxUnavailable?: boolean;
  /** Where full command outputs are saved (default <dataDir>/outputs): the sandbox shows this folder read-only. */
  outputFolder?: string;
  /** cairn's data folder: full command outputs go under <dataDir>/outputs. */
  dataDir?: string;
  approval?: ApprovalSettings;
  yes: boolean;
  allowOutsideWrites: boolean;
  protocol: "xml" | "native";
  mcp?: McpPort;
  /** Language servers (src/lsp/): new problems after edits, and the `lsp` tool. */
  languages?: LanguagePort;
  parallelTools?: boolean;
  commandTimeoutMs?: number;
  /** Leave a command's background processes running when it finishes (#11 item 3; default false). */
  keepBackgroundProcesses?: boolean;
  shell?: string;
  fetch?: typeof fetch;
  /** Permission rules in force (src/security/permission-rules.ts). */
  rules?: PermissionRules;
  allowOutsideReads?: boolean;
  /** How child processes start (scrubbed environment, sandbox). */
  launchPolicy?: LaunchPolicy;
  /** cairn's user config folder: protected, and a credentials folder. */
  userConfigDir?: string;
  /** The model accepts images (read_file then returns images as images). */
  supportsImages?: boolean;
  /** File and command operations (default: the local disk and shell). */
  operations?: WorkspaceOperations;
  /** Subagents (issue #17): only these tools are offered (the agent type's list). */
  onlyTools?: string[];
  /** Subagents (issue #17): commands run only when the rules' analysis finds them read-only. */
  readOnlyCommands?: boolean;
  /** Subagents (issue #17): this executor serves a child task (its completion goes to the parent, not the user). */
  subagent?: { subagentId: string };
  /** Subagents (issue #17): offers use_subagents, whose children this factory builds. */
  childTasks?: ChildTaskFactory;
  /** Headless (print mode, the fleet): the completion is not an ask (see ToolRuntimeOptions.headless). */
  headless?: boolean;
  /** Auto mode's judge (src/tools/auto-mode): decides what would be asked. */
  judge?: ActionJudge;
  /** Background processes (#31): offers `background` commands, read_process_output and stop_process. */
  processes?: ProcessPort;
}

export const defaultCommandTimeoutMs = 10 * 60 * 1000;

export type CairnToolExecutor = ToolExecutor & { registerTool(tool: ToolDefinition): void };

export function createToolExecutor(options: ToolExecutorOptions): CairnToolExecutor {
  const guard = new WorkspaceGuard(options.workspace);
  const approvals = new ApprovalPolicy({
    settings: options.approval ?? defaultApprovalSettings,
    yes: options.yes,
    allowOutsideWrites: options.allowOutsideWrites,
    allowOutsideReads: options.allowOutsideReads ?? false,
    ...(options.rules !== undefined ? { rules: options.rules } : {}),
    sandbox: options.launchPolicy?.sandbox?.mode ?? "off",
    ...(options.sandboxUnavailable === true ? { sandboxUnavailable: true } : {}),
    paths: workspacePathOracle(guard, options.userConfigDir ?? defaultUserConfigDir()),
    ...(options.judge !== undefined ? { judge: options.judge } : {}),
    ...(options.userConfigDir !== undefined ? { ruleFiles: { user: join(options.userConfigDir, "config.json"), project: join(guard.root, ".cairn", "config.json") } } : {}),
  });
  const files = new FileTracker();
  const reportProgress = checklistReporter();
  const commands = new CommandRegistry();
  const runtimeOptions: ToolRuntimeOptions = {
    yes: options.yes,
    ...(options.judge !== undefined ? { judge: options.judge } : {}),
    allowOutsideWrites: options.allowOutsideWrites,
    protocol: options.protocol,
    dataDir: options.dataDir ?? join(homedir(), ".cairn"),
    outputFolder: options.outputFolder ?? join(options.dataDir ?? join(homedir(), ".cairn"), "outputs"),
    commandTimeoutMs: options.commandTimeoutMs ?? defaultCommandTimeoutMs,
    shell: options.shell ?? process.env["SHELL"] ?? "/bin/sh",
    keepBackgroundProcesses: options.keepBackgroundProcesses ?? false,
    fetch: options.fetch ?? globalThis.fetch,
    operations: options.operations ?? localOperations,
    ...(options.mcp !== undefined ? { mcp: options.mcp } : {}),
    ...(options.languages !== undefined ? { languages: options.languages } : {}),
    ...(options.launchPolicy !== undefined ? { launchPolicy: options.launchPolicy } : {}),
    ...(options.supportsImages === true ? { supportsImages: true } : {}),
    ...(options.subagent !== undefined ? { subagent: options.subagent } : {}),
    ...(options.headless === true ? { headless: true } : {}),
    ...(options.processes !== undefined ? { processes: options.processes } : {}),
    ...(options.readOnlyCommands === true ? { readOnlyCommands: (command: string) => readOnlyCommandRefusal(command, options.rules, workspacePathOracle(guard, options.userConfigDir ?? defaultUserConfigDir())) } : {}),
  };
  const tools = new Map<string, ToolDefinition>();
  for (const tool of builtinTools) tools.set(tool.name, tool);
  if (options.childTasks !== undefined) tools.set("use_subagents", createUseSubagentsTool(options.childTasks));

  const onlyTools = options.onlyTools === undefined ? undefined : new Set(options.onlyTools);
  const offered = (tool: ToolDefinition): boolean => (onlyTools === undefined || onlyTools.has(tool.name)) && (tool.isAvailable?.(runtimeOptions) ?? true);
  const inMode = (mode: Mode): ToolDefinition[] => [...tools.values()].filter((tool) => offered(tool) && availableIn(tool, mode) && !(mode === "plan" && tool.mutates === true));

  const runtimeFor = (block: ToolUseBlock, context: ToolCallContext): ToolRuntime => ({
    context,
    callId: block.id,
    toolName: block.name,
    guard,
    approvals,
    files,
    commands,
    options: runtimeOptions,
  });

  const checkCall = (block: ToolUseBlock, context: ToolCallContext): { tool: ToolDefinition } | { outcome: ToolOutcome } => {
    const tool = tools.get(block.name);
    if (tool === undefined || !offered(tool)) {
      return {
        outcome: unknownTool(
          block.name,
          inMode(context.mode).map((candidate) => candidate.name),
        ),
      };
    }
    if ((context.mode === "plan" && tool.mutates === true) || !availableIn(tool, context.mode)) {
      return { outcome: notInMode(tool.name, context.mode) };
    }
    const invalidArguments = block.params[invalidArgumentsParam];
    if (invalidArguments !== undefined) {
      return { outcome: invalidArgumentsJson(tool.name, invalidArguments) };
    }
    for (const parameter of tool.parameters) {
      if (!parameter.required) continue;
      const value = block.params[parameter.name];
      if (value === undefined || (value.trim() === "" && parameter.allowEmpty !== true)) {
        return { outcome: missingParameter({ tool: tool.name, parameter: parameter.name, protocol: options.protocol }) };
      }
    }
    return { tool };
  };

  return {
    registerTool(tool) {
      tools.set(tool.name, tool);
    },
    toolSchemas(mode) {
      return inMode(mode).map((tool) => nativeSchema(tool, mode));
    },
    promptDescriptions(mode) {
      const sections = inMode(mode).map((tool) => promptSection(tool, mode));
      return [xmlFormatIntroduction(options.parallelTools === true), ...sections, taskProgressSection].join("\n\n");
    },
    toolNames() {
      return [...tools.values()].filter(offered).map((tool) => tool.name);
    },
    parameterNames() {
      const names = new Set<string>();
      for (const tool of tools.values()) for (const parameter of tool.parameters) names.add(parameter.name);
      if (options.protocol === "xml") names.add(taskProgressParameter);
      return [...names];
    },
    isReadOnly(name) {
      return tools.get(name)?.readOnly ?? false;
    },
    presentPartial(block, context) {
      const tool = tools.get(block.name);
      if (tool?.describePartial === undefined) return;
      try {
        const presentation = tool.describePartial(block.params, runtimeFor(block, context));
        const sayOptions = { partial: true, key: block.id, ...(presentation.meta !== undefined ? { meta: presentation.meta } : {}) };
        context.say(tool.partialSayType ?? "tool", presentation.text, sayOptions);
      } catch {
        // A preview is a courtesy; a half-streamed block may not describe anything yet.
      }
    },
    async executeTool(block, context) {
      const progress = block.params[taskProgressParameter];
      if (progress !== undefined) reportProgress(progress, context);
      const checked = checkCall(block, context);
      if ("outcome" in checked) return checked.outcome;
      if (context.signal.aborted) return toolError("the task was cancelled before this tool ran.");
      try {
        return await checked.tool.execute(block.params, runtimeFor(block, context));
      } catch (error) {
        return toolError(`${block.name} failed unexpectedly: ${describeError(error)}`);
      }
    },
    async abortAll() {
      await Promise.all([commands.stopAll(), options.childTasks?.abortAll()]);
    },
  };
}
