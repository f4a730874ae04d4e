import type { ResolvedSettings } from "../config/index.js";
import { requireApiKey } from "../config/index.js";
import { createProvider } from "../llm/create-provider.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import type { Provider } from "../llm/types.js";
import { createPromptBuilder } from "../prompt/system-prompt.js";
import { TaskStore } from "../store/task-store.js";
import type { Host } from "../task/host.js";
import { Task } from "../task/task.js";
import type { TaskResult } from "../task/task.js";
import { openForResume } from "../store/resume-task.js";
import type { PreparedResume } from "../store/resume.js";
import type { TaskLog } from "../task/seams.js";
import { noCheckpoints } from "../task/seams.js";
import { createToolExecutor } from "../tools/create-tool-executor.js";
import { NativeToolCallAssembler } from "../llm/native-tool-calls.js";
import { createCheckpoints } from "./checkpoint-wiring.js";
import { createHookWiring } from "./hook-wiring.js";
import { applyStartCommand } from "./custom-command-wiring.js";
import { createExtensionWiring } from "./extension-wiring.js";
import { withAllowedTools } from "../extensions/allowed-tools.js";
import type { TaskRules } from "../prompt/task-rules.js";
import { startMcp } from "./mcp-wiring.js";
import type { McpServerConfig } from "../mcp/config.js";
import type { ToolExecutor } from "../task/tool-executor.js";
import type { WorkspaceOperations } from "../tools/operations.js";

export interface Session {
  task: Task;
  taskId: string;
  provider: Provider;
  /** The task's rules: what applies now, and toggles (`/rules`). */
  rules: TaskRules;
  /** Runs the task: starts it, or continues a resumed one. */
  run(): Promise<TaskResult>;
  /** Stops MCP servers and releases the task's lock, after the task ended. */
  close(): Promise<void>;
}

export interface SessionOptions {
  settings: ResolvedSettings;
  host: Host;
  /** For the mock provider: the scenario to play. */
  scenario?: Scenario;
  /** A new task, or a task reopened for resume (with the user's message, if any). */
  start: { kind: "new"; task: string; taskId?: string } | { kind: "resume"; taskId: string; message?: string };
  /** Checkpoints of the workspace (default on). */
  checkpoints?: boolean;
  /** Say messages about the environment (MCP, checkpoints) before the task starts. */
  onNotice?: (text: string) => void;
  /** MCP servers besides the configured ones (e.g. given by an editor over ACP). */
  extraMcpServers?: McpServerConfig[];
  /** Where file reads, writes and commands happen (default: local disk and shell). */
  operations?: WorkspaceOperations;
  /** Decorates the tool executor (e.g. to report tool outcomes to an editor). */
  wrapToolExecutor?: (executor: ToolExecutor) => ToolExecutor;
}

/**
 * Builds everything one task needs from resolved settings: provider, tools,
 * MCP hub, store, checkpoints, prompt, and the Task itself.
 */
export async function createSession(sessionOptions: SessionOptions): Promise<Session> {
  const { options, allowedTools } = await withStartCommand(sessionOptions);
  const { settings } = options;
  const apiKey = requireApiKey(settings);
  const provider = await createProvider({
    provider: settings.provider,
    model: settings.model,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(settings.baseUrl === undefined ? {} : { baseUrl: settings.baseUrl }),
    ...(options.scenario ? { scenario: options.scenario } : {}),
    stall: settings.stallTimeouts,
    ...(settings.models[settings.model] ? { modelOverrides: stripUndefined(settings.models[settings.model] ?? {}) } : {}),
  });

  const store = new TaskStore({ dataDir: settings.dataDir });
  let log: TaskLog & { close(): Promise<void> };
  let taskId: string;
  let resumed: PreparedResume | undefined;
  if (options.start.kind === "new") {
    const writer = await store.create({ task: options.start.task, workspace: settings.cwd, ...(options.start.taskId ? { taskId: options.start.taskId } : {}) });
    log = writer;
    taskId = writer.taskId;
  } else {
    taskId = await store.resolveTaskId(options.start.taskId);
    const opened = await openForResume(store, taskId, { now: Date.now(), ...(options.start.message ? { userMessage: options.start.message } : {}) });
    log = opened.writer;
    for (const warning of opened.loaded.warnings) options.onNotice?.(warning);
    resumed = opened.resume;
  }

  // Parts built before the Task report to it once it exists.
  const current: { task?: Task } = {};
  const early: string[] = [];
  const notice = (text: string, meta?: Record<string, unknown>): void => {
    if (current.task) current.task.say("mcp_notification", text, meta ? { meta } : {});
    else early.push(text);
  };


  const mcp = await startMcp({ settings, notice, ...(options.extraMcpServers ? { extraServers: options.extraMcpServers } : {}) });

  const baseExecutor = createToolExecutor({
    workspace: settings.cwd,
    dataDir: settings.dataDir,
    approval: settings.autoApprove,
    yes: settings.yes,
    allowOutsideWrites: settings.allowOutsideWrites,
    protocol: settings.toolProtocol,
    ...(mcp.port ? { mcp: mcp.port } : {}),
    parallelTools: settings.parallelTools,
    keepBackgroundProcesses: settings.keepBackgroundProcesses,
    ...(options.operations ? { operations: options.operations } : {}),
  });
  const hooks = await createHookWiring({
    settings,
    taskId,
    say: (text, meta) => current.task?.say("hook_status", text, { meta }),
    stopTask: () => void current.task?.abortTask(),
    signal: () => current.task?.signal,
  });
  for (const text of hooks.notices) (options.onNotice ?? notice)(text);
  const extensions = await createExtensionWiring(settings, provider.model, taskId);
  for (const tool of extensions.tools) baseExecutor.registerTool(tool);
  const hostWrap = options.wrapToolExecutor ?? ((executor: ToolExecutor) => executor);
  const toolExecutor = withAllowedTools(hooks.wrapExecutor(hostWrap(extensions.wrapExecutor(mcp.wrap(baseExecutor)))), allowedTools);

  const checkpoints = options.checkpoints === false || !settings.checkpoints ? noCheckpoints : createCheckpoints({
    workspace: settings.cwd,
    dataDir: settings.dataDir,
    taskId,
    position: () => ({ apiHistoryLength: current.task?.apiConversationHistory.length ?? 0, uiMessageCount: current.task?.messages.messages.length ?? 0 }),
    say: (type, text, meta) => {
      current.task?.say(type, text, meta ? { meta } : {});
    },
  });

  const task = new Task({
    taskId,
    provider,
    toolExecutor,
    host: hooks.wrapHost(options.host),
    prompt: createPromptBuilder({ workspace: settings.cwd, toolExecutor, ...extensions.prompt }),
    protocol: settings.toolProtocol,
    mode: settings.plan ? "plan" : "act",
    yes: settings.yes,
    maxMistakes: settings.maxMistakes,
    parallelTools: settings.parallelTools,
    retrySchedule: settings.retry,
    log,
    mcp: mcp.gate,
    mcpWaitMs: settings.mcpWaitMs,
    checkpoints,
    hooks: hooks.taskHooks,
    createNativeToolCalls: () => new NativeToolCallAssembler(),
    ...(resumed ? { history: { apiHistory: resumed.apiHistory, uiMessages: resumed.uiMessages } } : {}),
  });
  current.task = task;
  for (const text of early) task.say("info", text);
  const created = task;
  const start = options.start;

  return {
    task: created,
    taskId,
    provider,
    rules: extensions.rules,
    run: async () => {
      if (start.kind === "new") return created.startTask(start.task);
      const prompt = await hooks.resumeMessage(start.message, resumed?.nextUserContent ?? []);
      if ("blocked" in prompt) {
        created.say("error", `A UserPromptSubmit hook blocked this message: ${prompt.blocked}`);
        return { status: "failed", error: prompt.blocked };
      }
      return created.resumeTask(prompt.content);
    },
    close: async () => {
      // The first checkpoint may still be running (it never takes longer than its bound).
      await checkpoints.waitInitial();
      await mcp.close();
      await extensions.close();
      await log.flush();
      await log.close();
    },
  };
}

/** A new task typed as `/name args` runs that custom command. */
async function withStartCommand(options: SessionOptions): Promise<{ options: SessionOptions; allowedTools: string[] }> {
  const { start } = options;
  const typed = start.kind === "new" ? start.task : start.message;
  if (typed === undefined) return { options, allowedTools: [] };
  const applied = await applyStartCommand(options.settings, typed);
  if (applied.notice !== undefined) options.onNotice?.(applied.notice);
  const expanded: SessionOptions["start"] = start.kind === "new" ? { ...start, task: applied.task } : { ...start, message: applied.task };
  return { options: { ...options, settings: applied.settings, start: expanded }, allowedTools: applied.allowedTools ?? [] };
}

function stripUndefined<T extends object>(value: T): { [K in keyof T]-?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as { [K in keyof T]-?: Exclude<T[K], undefined> };
}
