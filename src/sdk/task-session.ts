/**
 * One run of a task from code, to its result: the options become the CLI's
 * settings, the session core builds the task around an `SdkHost`, and the
 * run's totals become the result event. `CairnTask` (the SDK) hands the
 * events to a program's loop; `cairn serve` (src/server) to its clients,
 * watching the task's log as it is written.
 */
import type { Session } from "../session/session.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import type { McpServerConfig } from "../mcp/config.js";
import type { TaskLog } from "../task/contracts/seams.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { InvalidCustomToolError } from "../tools/custom-tool.js";
import type { CairnEvent, ResultEvent } from "./events.js";
import type { TaskOptions } from "./options.js";
import { SdkHost } from "./sdk-host.js";
import { mayReferenceMcp } from "../session/mcp-references.js";
import { PendingMessages } from "../session/pending-messages.js";

export type TaskStart = { kind: "new"; task: string } | { kind: "resume"; taskId: string; message?: string };

/** Where a run's events go, and what its runner may watch or steer. All calls are synchronous, in the order things happen. */
export interface TaskSessionHooks {
  emit: (event: CairnEvent) => void;
  /** Messages typed while the task works, drained at each tool boundary. */
  pendingMessages: () => string[];
  /** Each UI message as the host receives it, before its event. */
  onMessage?: (message: UiMessage) => void;
  /** Wraps the task's log (after redaction): sees every entry as it is written. */
  wrapLog?: (log: TaskLog, taskId: string) => TaskLog;
  /**
   * The task's id, its host and its session, once the session exists; `send` queues a message for the next tool boundary and
   * starts expanding its MCP references at once (a message passed through `pendingMessages` starts at the boundary, so one
   * that needs expanding waits for the boundary after it).
   */
  onStarted: (started: { taskId: string; host: SdkHost; session: Session; send: (text: string) => void }) => void;
}

export async function runTaskSession(start: TaskStart, options: TaskOptions, hooks: TaskSessionHooks): Promise<ResultEvent> {
  const [{ settingsFor }, { createSession }, { TaskStore }, { createTaskId }, { RefusalCounter }, { runSummary }] = await Promise.all([
    import("./options.js"),
    import("../session/session.js"),
    import("../store/task-store.js"),
    import("../store/task-id.js"),
    import("../session/refusal-counter.js"),
    import("../session/run-summary.js"),
  ]);
  const names = (options.tools ?? []).map((tool) => tool.name);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined) throw new InvalidCustomToolError(`two custom tools are named ${twice}; give each its own name`);
  const settings = await settingsFor(options);
  const taskId = start.kind === "new" ? createTaskId() : await new TaskStore({ dataDir: settings.dataDir }).resolveTaskId(start.taskId);
  const host = new SdkHost({ taskId, emit: hooks.emit, task: { ...options, yes: settings.yes } });
  const refusals = new RefusalCounter();
  // What the CLI says on stderr (a setting's warning, the sandbox's state, a provider's note) is a warning event.
  for (const text of [...settings.warnings, ...(settings.sandboxNotice === undefined ? [] : [settings.sandboxNotice])]) host.notice(text);
  // A message sent while the task works reaches the model with its MCP references expanded, as the first one does.
  const messages = new PendingMessages(mayReferenceMcp);
  const session = await createSession({
    settings,
    ...(await scenarioOf(options.scenario)),
    start: start.kind === "new" ? { kind: "new", task: start.task, taskId } : { kind: "resume", taskId, ...(start.message === undefined ? {} : { message: start.message }) },
    headless: true,
    onNotice: (text) => host.notice(text),
    host: {
      onMessage: (message) => {
        refusals.observe(message);
        hooks.onMessage?.(message);
        host.onMessage(message);
      },
      answerAsk: (message, signal) => host.answerAsk(message, signal),
    },
    pendingUserMessages: () => {
      for (const text of hooks.pendingMessages()) messages.push(text);
      return messages.drain();
    },
    ...(hooks.wrapLog ? { wrapLog: hooks.wrapLog } : {}),
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.hooks ? { hooks: (await import("../hooks/callback-hooks.js")).callbackHooks(options.hooks) } : {}),
    ...(options.appendSystemPrompt ? { systemPromptAddition: options.appendSystemPrompt } : {}),
    ...(options.env ? { baseEnvironment: options.env } : {}),
    ...(options.traceparent ? { traceparent: options.traceparent } : {}),
    ...(options.mcpServers ? { extraMcpServers: await mcpServersOf(options.mcpServers, settings.cwd) } : {}),
  });
  messages.expandWith((text) => session.expandMessage(text));
  hooks.onStarted({ taskId: session.taskId, host, session, send: (text) => messages.push(text) });
  const startedAt = Date.now();
  try {
    const result = await session.run();
    return { v: 2, type: "result", ...runSummary({ session, result, startedAt, refused: refusals.count }) };
  } finally {
    await session.close();
    host.flush();
  }
}

async function scenarioOf(scenario: Scenario | string | undefined): Promise<{ scenario?: Scenario }> {
  if (scenario === undefined) return {};
  if (typeof scenario !== "string") return { scenario };
  const { loadScenario } = await import("../llm/scripted/scenario.js");
  return { scenario: await loadScenario(scenario) };
}

async function mcpServersOf(servers: Record<string, unknown>, cwd: string): Promise<McpServerConfig[]> {
  const { parseMcpConfig } = await import("../mcp/config.js");
  return parseMcpConfig({ mcpServers: servers }, { file: "the mcpServers option", baseDirectory: cwd }).servers;
}
