import type { ResolvedSettings } from "../config/index.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import type { ImageContent, Provider } from "../llm/types.js";
import { createPromptBuilder } from "../prompt/system-prompt.js";
import { TaskStore } from "../store/task-store.js";
import type { McpNotificationMeta } from "../task/contracts/message-meta.js";
import type { Host } from "../task/contracts/host.js";
import { Task } from "../task/task.js";
import type { TaskResult } from "../task/task.js";
import { openForResume } from "../store/resume-task.js";
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
import { expandMcpStart } from "./mcp-references.js";
import { startMcp } from "./mcp-wiring.js";
import { budgetSoFar, createSessionSecurity } from "./security-wiring.js";
import { createSubagents } from "./subagents/subagent-wiring.js";
import { addUsage } from "../security/budget.js";
import type { SpendLedger } from "../security/spend-cap.js";
import { startTelemetry, type TaskTelemetry } from "./telemetry-wiring.js";
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

  const store = new TaskStore({ dataDir: settings.dataDir });
  // A data folder that cannot be made is named as such (with how to choose another), not as a failed mkdir deep inside it.
  const { ensureDataFolder } = await import("../store/data-folder.js");
  await ensureDataFolder(settings.dataDir);
  let log: TaskLog & { close(): Promise<void> };
  let taskId: string;
  let resumed: PreparedResume | undefined;
  let resumedUsage: { tokensIn: number; tokensOut: number; cost: number } | undefined;
  let usedSoFar: UiMessage[] | undefined;
  let resumedActiveMs: number | undefined;
  let uncompact: UncompactState | undefined;
  if (options.start.kind === "new") {
    const writer = await store.create({ task: options.start.task, workspace: settings.cwd, model: provider.model.id, ...(options.start.taskId ? { taskId: options.start.taskId } : {}) });
    log = writer;
    taskId = writer.taskId;
  } else {
    taskId = await store.resolveTaskId(options.start.taskId);
    const { message, workspaceChange } = options.start;
    const opened = await openForResume(store, taskId, { now: Date.now(), ...(message ? { userMessage: message } : {}), ...(workspaceChange ? { workspaceChange } : {}) });
    log = opened.writer;
    for (const warning of opened.loaded.warnings) options.onNotice?.(warning);
    resumed = opened.resume;
    resumedUsage = { tokensIn: opened.loaded.tokensIn, tokensOut: opened.loaded.tokensOut, cost: opened.loaded.cost };
    usedSoFar = opened.loaded.uiMessages;
    resumedActiveMs = opened.loaded.activeMs;
    uncompact = opened.loaded.uncompact;
  }

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
    const telemetry = await startTelemetry(settings, {
      taskId,
      task: options.start.kind === "new" ? options.start.task : "",
      model: provider.model.id,
      provider: provider.name,
      ...(options.traceparent ? { traceparent: options.traceparent } : {}),
    });
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
  const mcp = await startMcp({
    settings,
    notice,
    sandboxServers: (servers) => security.sandboxMcpServers(servers),
    ...(options.extraMcpServers ? { extraServers: options.extraMcpServers } : {}),
  });
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
    host: security.wrapHost(hooks.wrapHost(options.host)),
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
  // Images from an editor's prompt (start.images) or the terminal (options.images), for models that take them.
  const images = provider.model.supportsImages ? [...(start.images ?? []), ...(options.images ?? [])] : [];
  if ((options.images?.length ?? 0) > 0 && images.length === 0) {
    const note = `${provider.model.id} does not accept images; the attached images were not sent.`;
    if (options.onNotice) options.onNotice(note);
    else task.say("warning", note);
  }

  const ended = (result: TaskResult): TaskResult => {
    parts.telemetry?.end(result);
    return result;
  };
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
    run: async () => {
      // Notices that came while the session was built (an MCP server that failed at once), now that the host listens.
      current.started = true;
      for (const { text, meta } of early.splice(0)) created.say("mcp_notification", text, meta ? { meta } : {});
      // `/mcp__server__prompt args` and `@server:uri` need the servers: expanded now that they start.
      const message = await expandMcpStart(start.kind === "new" ? start.task : start.message, mcp, (notice) => created.say("info", notice));
      if (start.kind === "new") return ended(await created.startTask(message ?? start.task, images));
      const prompt = await hooks.resumeMessage(message, resumed?.nextUserContent ?? []);
      if ("blocked" in prompt) {
        created.say("error", `A UserPromptSubmit hook blocked this message: ${prompt.blocked}`);
        return { status: "failed", error: prompt.blocked };
      }
      // The model gets the message with the resumed content: the transcript (the log, cairn show,
      // a later resume, session/load in an editor) records it too, whichever host resumed the task.
      if (message !== undefined && message.trim() !== "") created.say("user_feedback", message);
      return ended(await created.resumeTask([...prompt.content, ...images]));
    },
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
