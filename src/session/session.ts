import type { ResolvedSettings } from "../config/index.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import type { ImageContent, Provider } from "../llm/types.js";
import { createPromptBuilder } from "../prompt/system-prompt.js";
import type { McpNotificationMeta } from "../task/contracts/message-meta.js";
import type { Host } from "../task/contracts/host.js";
import { Task } from "../task/task.js";
import type { TaskResult } from "../task/task.js";
import { openSessionLog } from "./session-log.js";
import type { PreparedResume } from "../store/resume.js";
import type { TaskLog } from "../task/contracts/seams.js";
import { noCheckpoints } from "../task/contracts/seams.js";
import { NativeToolCallAssembler } from "../llm/native-tool-calls.js";
import { createCheckpoints } from "./checkpoint-wiring.js";
import { createHookWiring } from "./hook-wiring.js";
import { withStartCommand } from "./custom-command-wiring.js";
import { createExtensionWiring } from "./extension-wiring.js";
import { withAllowedTools } from "../extensions/allowed-tools.js";
import type { TaskRules } from "../prompt/task-rules.js";
import { expandMcpMessage, withExpandedAnswers } from "./mcp-references.js";
import { startMcp } from "./mcp-wiring.js";
import type { KeptMcpServers } from "./kept-mcp-servers.js";
import { imagesToSend, runSessionTask } from "./session-run.js";
import { budgetSoFar, createSessionSecurity } from "./security-wiring.js";
import { createSubagents } from "./subagents/subagent-wiring.js";
import { addUsage } from "../security/budget.js";
import type { SpendLedger } from "../security/spend-cap.js";
import { startSessionTelemetry, type TaskTelemetry } from "./telemetry-wiring.js";
import { startBubblewrapProbe } from "../security/sandbox.js";
import { createSessionProviders } from "./session-providers.js";
import type { SessionSecurity } from "./security-wiring.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { ContextManager } from "../context/context-manager.js";
import type { UncompactState } from "../context/compaction-log.js";
import { checklistReminder, withChecklistReminder } from "../context/checklist.js";
import { workspaceFileReader } from "../context/workspace-files.js";
import { registerContextManager } from "../context/context-registry.js";
import type { McpServerConfig } from "../mcp/config.js";
import type { McpPromptInfo } from "../mcp/user-references.js";
import type { ToolExecutor } from "../task/contracts/tool-executor.js";
import type { WorkspaceOperations } from "../tools/operations.js";
import type { ToolDefinition } from "../tools/tool-definition.js";
import type { HookDefinition } from "../hooks/hook-definition.js";
import { workspaceProblem } from "./workspace-check.js";
import type { JudgeTotals } from "../tools/auto-mode/judge-contract.js";
import type { ProcessTable } from "../tools/process/process-table.js";
import { createSessionTools } from "./session-tools.js";

export interface Session {
  task: Task;
  /** Context management of the task: `/compact`, `/uncompact`, tokens used of the window. */
  context: ContextManager;
  taskId: string;
  provider: Provider;
  /** The task's rules: what applies now, and toggles (`/rules`). */
  rules: TaskRules;
  /** What is left of the task's budgets for the status line (#14), "" without limits. */
  budgetLeft(): string;
  /** How many subagents the task had and what they spent in all (the summary adds it to the task's totals). */
  subagentTotals(): { count: number; tokensIn: number; tokensOut: number; cost: number };
  /** What auto mode's judge decided and spent in this run; undefined when auto mode is off. */
  autoModeTotals(): JudgeTotals | undefined;
  /** Turns auto mode's judge on or off (Tab in the terminal UI); false when the session has none. */
  setAutoMode(active: boolean): boolean;
  /** The task's background processes (#31): the caller's table, or the session's own, ended by `close`. */
  processes: ProcessTable;
  /** Runs the task: starts it, or continues a resumed one. */
  run(): Promise<TaskResult>;
  /** A message typed for the task with its MCP references expanded, as the first message's are (notices go to the task). */
  expandMessage(text: string): Promise<string>;
  /** The prompts of the task's MCP servers connected now (`/mcp__server__prompt`), for a client's completion menu. */
  mcpPrompts(): McpPromptInfo[];
  /** Stops MCP servers and releases the task's lock, after the task ended. */
  close(): Promise<void>;
}

export interface SessionOptions {
  settings: ResolvedSettings;
  host: Host;
  /** For the mock provider: the scenario to play. */
  scenario?: Scenario;
  /** A new task, or a task reopened for resume (with the user's message, if any). */
  start: { kind: "new"; task: string; taskId?: string; images?: ImageContent[] } | { kind: "resume"; taskId: string; message?: string; images?: ImageContent[]; workspaceChange?: string };
  /** Checkpoints of the workspace (default on). */
  checkpoints?: boolean;
  /** Say messages about the environment (MCP, checkpoints) before the task starts. */
  onNotice?: (text: string) => void;
  /** The fleet's shared rate limits and budgets wrap the provider (src/fleet). */
  wrapProvider?: (provider: Provider) => Provider;
  /** The W3C trace context the task's trace continues (a fleet job's, an HTTP request's), when telemetry is on (#36). */
  traceparent?: string;
  /** Where spend caps across tasks add up (#36): the fleet's Redis; default: the data folder's ledger. */
  spendLedger?: SpendLedger;
  /** The fleet mirrors the task's log to Redis as it is written (src/fleet). */
  wrapLog?: (log: TaskLog, taskId: string) => TaskLog;
  /** Messages typed while the task works (the TUI's queue), drained at each tool boundary. */
  pendingUserMessages?: () => string[];
  /** Images for the first message (new task) or the resumed message; dropped with a note for models without images. */
  images?: ImageContent[];
  /** MCP servers besides the configured ones (e.g. given by an editor over ACP). */
  extraMcpServers?: McpServerConfig[];
  /** MCP servers the front end keeps across its tasks (the terminal UI, an ACP session); without it the session starts its own and `close` stops them. */
  keptMcp?: KeptMcpServers;
  /** Where file reads, writes and commands happen (default: local disk and shell). */
  operations?: WorkspaceOperations;
  /** Decorates the tool executor (e.g. to report tool outcomes to an editor). */
  wrapToolExecutor?: (executor: ToolExecutor) => ToolExecutor;
  /** Nobody reviews the result (`cairn -p`, `cairn run`, the fleet): the task completes when the model completes. */
  headless?: boolean;
  /** Tools defined by the program that embeds cairn (the SDK), offered beside the built-in ones under the same approvals, hooks and budgets. */
  tools?: ToolDefinition[];
  /** Hooks run in-process (the SDK's callbacks), beside the configured ones. */
  hooks?: HookDefinition[];
  /** Text appended to the system prompt (the SDK's `appendSystemPrompt`). */
  systemPromptAddition?: string;
  /** The environment commands, hooks and MCP servers start from (the SDK's `env`); default: this process's. */
  baseEnvironment?: NodeJS.ProcessEnv;
  /**
   * Background processes (#31) kept by the front end across tasks (the terminal UI), which ends them.
   * Without it the session keeps its own, and `close` ends them.
   */
  processes?: ProcessTable;
}

/**
 * Builds everything one task needs from resolved settings: provider, tools,
 * MCP hub, store, checkpoints, prompt, and the Task itself.
 */
export async function createSession(sessionOptions: SessionOptions): Promise<Session> {
  const { options, allowedTools } = await withStartCommand(sessionOptions);
  const { settings } = options;
  const { apiKey, provider, providerForModel } = await createSessionProviders({
    settings,
    ...(options.scenario ? { scenario: options.scenario } : {}),
    ...(options.wrapProvider ? { wrapProvider: options.wrapProvider } : {}),
    // Notes from the provider (reasoning left out on a provider switch) reach the user: on stderr headless, in the task's messages otherwise.
    onNotice: (text: string) => (options.onNotice ? options.onNotice(text) : current.task?.say("warning", text)),
  });

  const opened = await openSessionLog({ settings, start: options.start, model: provider.model.id, ...(options.onNotice ? { onNotice: options.onNotice } : {}) });
  const { store, log, taskId, resumed, resumedUsage, usedSoFar, resumedActiveMs, uncompact } = opened;

  // Parts built before the Task report to it once it exists.
  // `started`: the caller's host is listening (run() was called); notices wait until then.
  const current: { task?: Task; started?: boolean } = {};
  const early: Array<{ text: string; meta?: McpNotificationMeta }> = [];
  const notice = (text: string, meta?: McpNotificationMeta): void => {
    if (current.task && current.started) current.task.say("mcp_notification", text, meta ? { meta } : {});
    else early.push(meta ? { text, meta } : { text });
  };

  const started: Array<() => Promise<void>> = [];
  try {
    // A resumed task's budget goes on from what it (and its subagents) spent before (#14).
    const resumedBudget =
      usedSoFar && Object.keys(settings.budget).length > 0 ? await budgetSoFar({ store, messages: usedSoFar, activeMs: resumedActiveMs, recorded: resumedUsage ?? { tokensIn: 0, tokensOut: 0, cost: 0 } }) : undefined;
    // A sandbox chosen in settings still needs bubblewrap's answer: waited for here without blocking (bin/cairn started it early).
    if (settings.sandbox !== "off") await startBubblewrapProbe();
    const telemetry = await startSessionTelemetry(settings, { taskId, start: options.start, provider, ...(options.traceparent ? { traceparent: options.traceparent } : {}) });
    if (telemetry) started.push(() => telemetry.shutdown());
    const security = createSessionSecurity({
      settings,
      apiKey,
      ...(usedSoFar ? { resumedMessages: usedSoFar } : {}),
      ...(resumedBudget ? { resumedBudget } : {}),
      ...(options.baseEnvironment ? { baseEnvironment: options.baseEnvironment } : {}),
      ...(options.spendLedger ? { spendLedger: options.spendLedger } : {}),
      taskId,
    });
    return await buildSession({
      // Telemetry reads what the task shows, the subagents' messages included.
      options: telemetry ? { ...options, host: telemetry.wrapHost(options.host) } : options,
      ...(telemetry ? { telemetry } : {}),
      settings,
      provider,
      log,
      taskId,
      resumed,
      resumedUsage,
      uncompact,
      allowedTools,
      current,
      early,
      notice,
      security,
      started,
      providerForModel,
      ...(usedSoFar ? { resumedMessages: usedSoFar } : {}),
    });
  } catch (error) {
    // The log was opened and holds the task's lock, MCP servers may run: a session
    // that could not be built (an invalid mcp.json, say) leaves none of them behind (#11 item 6).
    for (const stop of started.reverse()) await stop().catch(() => undefined);
    await log.close().catch(() => undefined);
    throw error;
  }
}

async function buildSession(parts: {
  options: SessionOptions;
  settings: ResolvedSettings;
  provider: Provider;
  log: TaskLog & { close(): Promise<void> };
  taskId: string;
  resumed: PreparedResume | undefined;
  resumedUsage: { tokensIn: number; tokensOut: number; cost: number } | undefined;
  uncompact: UncompactState | undefined;
  /** Tools a custom command's front matter pre-approves. */
  allowedTools: string[];
  current: { task?: Task; started?: boolean };
  early: Array<{ text: string; meta?: McpNotificationMeta }>;
  notice: (text: string, meta?: McpNotificationMeta) => void;
  security: SessionSecurity;
  /** What was started so far, stopped again if building the session fails. */
  started: Array<() => Promise<void>>;
  providerForModel: (model: string) => Promise<Provider>;
  resumedMessages?: UiMessage[];
  telemetry?: TaskTelemetry;
}): Promise<Session> {
  const { options, settings, provider, log, taskId, resumed, resumedUsage, uncompact, allowedTools, current, early, notice, security, started } = parts;
  const subagents = await createSubagents({
    settings,
    provider,
    providerForModel: parts.providerForModel,
    security,
    host: security.wrapHost(options.host),
    parentTaskId: taskId,
    current,
    notice,
    checkpoints: options.checkpoints !== false,
    ...(parts.resumedMessages ? { resumedMessages: parts.resumedMessages } : {}),
    ...(options.operations ? { operations: options.operations } : {}),
  });
  const mcpOptions = {
    settings,
    notice,
    sandboxServers: (servers: McpServerConfig[]) => security.sandboxMcpServers(servers),
    ...(options.extraMcpServers ? { extraServers: options.extraMcpServers } : {}),
  };
  const mcp = await (options.keptMcp ? options.keptMcp.use(mcpOptions) : startMcp(mcpOptions));
  // The first message, later ones and answers to the task's questions: one expansion of their MCP references.
  const expandMessage = (text: string): Promise<string> => expandMcpMessage(text, mcp, (line) => current.task?.say("info", line));
  started.push(async () => {
    await mcp.close();
    security.release();
  });

  subagents.factory.useMcp(mcp);
  const { judge, processes, reportProcesses, languages, baseExecutor } = await createSessionTools({
    options,
    settings,
    provider,
    taskId,
    security,
    started,
    subagents: subagents.factory,
    mcpPort: mcp.port,
    providerForModel: parts.providerForModel,
    conversation: () => current.task?.apiConversationHistory ?? [],
    resumedMessages: parts.resumedMessages ?? [],
  });
  const hooks = await createHookWiring({
    settings,
    taskId,
    say: (text, meta) => current.task?.say("hook_status", text, { meta }),
    stopTask: () => void current.task?.abortTask(),
    signal: () => current.task?.signal,
    launchPolicy: security.launchPolicy,
    ...(options.hooks ? { extraHooks: options.hooks } : {}),
  });
  subagents.factory.useHooks(hooks);
  for (const text of hooks.notices) (options.onNotice ?? notice)(text);
  const extensions = await createExtensionWiring(settings, provider.model, taskId);
  started.push(() => extensions.close());
  for (const tool of [...extensions.tools, ...(options.tools ?? [])]) baseExecutor.registerTool(tool);
  const hostWrap = options.wrapToolExecutor ?? ((executor: ToolExecutor) => executor);
  const toolExecutor = withAllowedTools(hooks.wrapExecutor(hostWrap(extensions.wrapExecutor(mcp.wrap(baseExecutor)))), allowedTools);

  const checkpoints =
    options.checkpoints === false || !settings.checkpoints
      ? noCheckpoints
      : createCheckpoints({
          workspace: settings.cwd,
          dataDir: settings.dataDir,
          taskId,
          position: () => ({ apiHistoryLength: current.task?.apiConversationHistory.length ?? 0, uiMessageCount: current.task?.messages.messageCount ?? 0 }),
          say: (type, text, meta) => {
            current.task?.say(type, text, meta ? { meta } : {});
          },
        });

  let lastSystemPrompt = "";
  const budget = security.budget ? (subagents.factory.parentBudget() ?? security.budget) : undefined;
  const context = new ContextManager({
    // Summary requests carry no known secret; the task's budget seam counts and charges them (#14, #36).
    provider: security.wrapProvider(provider),
    ...(settings.context ? { settings: settings.context } : {}),
    readFile: workspaceFileReader(settings.cwd),
    ...(uncompact ? { uncompact } : {}),
    requestOverhead: () => lastSystemPrompt,
    beforeCompaction: async (trigger) => {
      await hooks.taskHooks.preCompact?.({ taskId, trigger });
    },
  });
  const prompt = createPromptBuilder({
    workspace: settings.cwd,
    toolExecutor,
    ...extensions.prompt,
    extraSections: async () => [...(await extensions.prompt.extraSections()), ...subagents.promptSections(), ...(options.systemPromptAddition ? [options.systemPromptAddition] : [])],
  });
  const task = new Task({
    taskId,
    provider: security.wrapProvider(provider),
    toolExecutor,
    host: security.wrapHost(hooks.wrapHost(withExpandedAnswers(options.host, expandMessage))),
    prompt: {
      systemPrompt: async (promptOptions) => (lastSystemPrompt = await prompt.systemPrompt(promptOptions)),
      // Open checklist items come back in the environment details every few requests without an update.
      environmentDetails: async (detailOptions) =>
        withChecklistReminder(
          withChecklistReminder(await prompt.environmentDetails({ ...detailOptions, contextTokens: context.tokensUsed() }), reportProcesses()),
          checklistReminder(current.task?.apiConversationHistory ?? [], context.settings.checklistReminderEvery),
        ),
    },
    context,
    workspaceProblem: () => workspaceProblem(settings.cwd, taskId),
    protocol: settings.toolProtocol,
    mode: settings.plan ? "plan" : "act",
    yes: settings.yes,
    maxMistakes: settings.maxMistakes,
    parallelTools: settings.parallelTools,
    retrySchedule: settings.retry,
    // Redacted first, so the fleet's mirror (wrapLog) never holds a secret.
    log: security.wrapLog(options.wrapLog ? options.wrapLog(log, taskId) : log),
    mcp: mcp.gate,
    ...(budget ? { budget } : {}),
    ...(security.spendCap ? { spendCap: security.spendCap } : {}),
    mcpWaitMs: settings.mcpWaitMs,
    checkpoints,
    hooks: hooks.taskHooks,
    createNativeToolCalls: () => new NativeToolCallAssembler(),
    ...(options.pendingUserMessages ? { pendingUserMessages: options.pendingUserMessages } : {}),
    ...(resumed ? { history: { apiHistory: resumed.apiHistory, uiMessages: resumed.uiMessages, ...(resumedUsage ? { usage: resumedUsage } : {}) } } : {}),
  });
  current.task = task;
  registerContextManager(task, context);
  const created = task;
  const start = options.start;
  const images = imagesToSend({ model: provider.model, start, options, say: (note) => task.say("warning", note) });
  return {
    task: created,
    context,
    taskId,
    provider,
    rules: extensions.rules,
    // What the budget counts: the task's own spending and what its children spent in this run (#14, #17).
    budgetLeft: () => security.budget?.remaining(addUsage(created.usage.totals(), subagents.factory.childrenSpent())) ?? "",
    subagentTotals: () => subagents.factory.subagentTotals(),
    autoModeTotals: () => judge?.totals(),
    setAutoMode: (active) => {
      if (judge === undefined) return false;
      judge.active = active;
      return true;
    },
    processes,
    run: () =>
      runSessionTask({
        task: created,
        start,
        images,
        early,
        current,
        expandMessage,
        resumeMessage: (message, content) => hooks.resumeMessage(message, content),
        resumedContent: resumed?.nextUserContent ?? [],
        ...(parts.telemetry ? { telemetry: parts.telemetry } : {}),
      }),
    expandMessage,
    mcpPrompts: () => mcp.references?.listPrompts() ?? [],
    close: async () => {
      // The first checkpoint may still be running (it never takes longer than its bound).
      await checkpoints.waitInitial();
      await subagents.factory.removeAll();
      if (options.processes === undefined) await processes.dispose();
      await mcp.close();
      await languages.shutdown();
      await extensions.close();
      await log.flush();
      await log.close();
      // Exported last, within about a second even when the collector is down.
      await parts.telemetry?.shutdown();
    },
  };
}
