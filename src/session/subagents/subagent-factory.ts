/**
 * The child-task factory (issue #17, contract in src/task/contracts/subagents.ts): each
 * subagent is a Task built from the parent's session wiring: the parent's
 * provider (or its agent type's model), settings, permission rules, sandbox,
 * ignore file and budget, a fresh conversation, and its own task log linked
 * from the parent's. Its messages reach the parent's host carrying its
 * `subagentId`; its asks name it.
 */
import type { LanguageServers } from "../../lsp/language-servers.js";
import { startLanguageServers } from "../lsp-wiring.js";
import { join } from "node:path";
import type { ResolvedSettings } from "../../config/index.js";
import type { Provider } from "../../llm/types.js";
import { NativeToolCallAssembler } from "../../llm/native-tool-calls.js";
import { createPromptBuilder } from "../../prompt/system-prompt.js";
import type { TaskStore } from "../../store/task-store.js";
import type { Host } from "../../task/contracts/host.js";
import type { SubagentLinkMeta } from "../../task/contracts/message-meta.js";
import type { UiMessage } from "../../task/contracts/messages.js";
import type { ChildTaskFactory, SubagentReport, SubagentRequest } from "../../task/contracts/subagents.js";
import { Task } from "../../task/task.js";
import type { WorkspaceOperations } from "../../tools/operations.js";
import type { AgentType } from "./agent-types.js";
import { childHost, subagentSection } from "./subagent-host.js";
import { EarlierChildren, type PreviousChild } from "./subagent-earlier-runs.js";
import type { SessionSecurity } from "../security-wiring.js";
import { createIsolatedWorkspace, type IsolatedWorkspace } from "./subagent-workspace.js";
import { ChildChanges } from "./subagent-changes.js";
import { SubagentSpending, type Totals } from "./subagent-spending.js";
import { addUsage, zeroUsage } from "../../security/budget.js";
import { createCheckpoints } from "../checkpoint-wiring.js";
import { ContextManager } from "../../context/context-manager.js";
import { workspaceFileReader } from "../../context/workspace-files.js";
import { RefusalCounter } from "../refusal-counter.js";
import type { ActionJudge } from "../../tools/auto-mode/judge-contract.js";
import { createChildToolExecutor } from "./child-tool-executor.js";
import { openChildLog } from "./child-log.js";
import type { SubagentHooks, SubagentMcp } from "./subagent-ports.js";
import type { SubagentMergeResult } from "../../task/contracts/subagents.js";

export interface SubagentFactoryOptions {
  settings: ResolvedSettings;
  /** The parent's provider, before the security layer wraps it (each child wraps its own). */
  provider: Provider;
  /** A provider for an agent type that names its own model. */
  providerForModel: (model: string) => Promise<Provider>;
  security: SessionSecurity;
  /** The parent's host (already wrapped by the security layer). */
  host: Host;
  store: TaskStore;
  parentTaskId: string;
  /** The parent's own usage so far (the budget counts parent and children together). */
  parentUsage: () => Totals;
  /** Says a message in the parent's task (the link to each child's log). */
  parentSay: (text: string, meta: SubagentLinkMeta) => void;
  agentTypes: AgentType[];
  operations?: WorkspaceOperations;
  /** False when the parent runs without checkpoints (`--no-checkpoints`). */
  checkpoints?: boolean;
  /** A resumed parent's messages: the children it started before (issue #17, resume). */
  resumedMessages?: ReadonlyArray<UiMessage>;
}

interface RunningChild {
  task: Task;
  /** Resolves when the child is wholly done: its task ended, its worktree committed, its log closed. */
  settled: Promise<void>;
}

export class SubagentFactory implements ChildTaskFactory {
  readonly maxParallel: number;
  private readonly running = new Set<RunningChild>();
  /** What the children spent: in this run (for the budget) and in all (for the summary). */
  private readonly spending: SubagentSpending;
  /** The parent's MCP hub (set once it started): general children use its servers too. */
  private mcp: SubagentMcp | undefined;
  private languages: LanguageServers | undefined;
  /** The parent was interrupted: its children's worktrees stay for a resume. */
  private interrupted = false;
  /** Children of an earlier run of this parent (a resumed parent), by agent and prompt; each is taken once. */
  private readonly earlier: EarlierChildren;
  /** Writing children's own worktrees (or copies), until merged, kept, discarded or the session ends. */
  private readonly changes: ChildChanges;

  constructor(private readonly options: SubagentFactoryOptions) {
    this.maxParallel = options.settings.subagents.maxParallel;
    this.earlier = new EarlierChildren({ messages: options.resumedMessages ?? [], store: options.store });
    this.spending = new SubagentSpending(options.resumedMessages);
    this.changes = new ChildChanges(join(options.settings.dataDir, "subagent-changes", options.parentTaskId));
  }

  /** Ids so far: numbered on from the children of an earlier run of this parent, so none is used twice. */
  private counter: number | undefined;

  newSubagentId(agent: string): string {
    this.counter ??= this.earlier.highestNumber();
    this.counter += 1;
    return `${agent}-${this.counter}`;
  }

  private hooks: SubagentHooks | undefined;
  private judge: ActionJudge | undefined;

  /** The parent's language servers: children in the parent's folder share them (#32). */
  useLanguages(languages: LanguageServers): void {
    this.languages = languages;
  }

  /** The parent's auto-mode judge (issue 30): what a child would ask is judged too, on the parent's budget. */
  useJudge(judge: ActionJudge): void {
    this.judge = judge;
  }

  /** Hands the children the parent's MCP servers (after the hub started). */
  useMcp(mcp: SubagentMcp): void {
    this.mcp = mcp;
  }

  agentTypes(): Array<{ name: string; description: string; readOnly: boolean }> {
    return this.options.agentTypes.map(({ name, description, readOnly }) => ({ name, description, readOnly }));
  }

  /** What the children spent so far in this run (running ones included). */
  childrenSpent(): Totals {
    return this.spending.thisRun();
  }

  /**
   * How many subagents the task had and what they spent in all (running ones so
   * far, and those of earlier runs of a resumed parent): the parent's summary adds it (src/cli/run-summary.ts).
   */
  subagentTotals(): Totals & { count: number } {
    return this.spending.whole();
  }

  /** The parent's budget seam, counting what its children spent too. */
  parentBudget(): { beforeRequest(usage: Totals): string | undefined; beforeToolCall(): string | undefined } | undefined {
    const budget = this.options.security.budget;
    if (budget === undefined) return undefined;
    return {
      beforeRequest: (usage) => budget.beforeRequest(addUsage(usage, this.childrenSpent())),
      beforeToolCall: () => budget.beforeToolCall(),
    };
  }

  async runChild(request: SubagentRequest): Promise<SubagentReport> {
    const { settings, security, store } = this.options;
    const type = this.options.agentTypes.find((candidate) => candidate.name === request.agent);
    const previous = await this.earlier.take(request);
    const subagentId = previous?.subagentId ?? request.subagentId;
    const base = { subagentId, agent: request.agent, tokensIn: 0, tokensOut: 0, cost: 0 };
    if (type === undefined) return { ...base, taskId: "", status: "failed", error: `unknown agent type ${request.agent}` };
    if (request.signal.aborted) return { ...base, taskId: previous?.taskId ?? "", status: "aborted" };
    if (previous?.loaded.status === "completed") return this.reuseReport(type, previous);

    let provider: Provider;
    try {
      provider = type.model === undefined ? this.options.provider : await this.options.providerForModel(type.model);
    } catch (error) {
      return { ...base, taskId: "", status: "failed", error: `the agent type ${type.name} names the model ${type.model ?? ""}: ${error instanceof Error ? error.message : String(error)}` };
    }
    // A new child's log is made now; an interrupted child's (the parent was resumed) is opened once its folder is known.
    const created = previous === undefined ? await store.create({ task: request.prompt, workspace: settings.cwd, model: provider.model.id, parent: { taskId: this.options.parentTaskId, subagentId } }) : undefined;
    const childTaskId = created?.taskId ?? previous?.taskId ?? "";
    this.options.parentSay(`Subagent ${subagentId} (${type.name}) ${previous === undefined ? "started" : "resumed"}: task ${childTaskId}`, {
      subagentId,
      agent: type.name,
      childTaskId,
    });

    // A child that may write works in its own worktree (or copy); read-only ones share the workspace.
    let isolated: IsolatedWorkspace | undefined;
    if (!type.readOnly) {
      try {
        isolated = await createIsolatedWorkspace({ workspace: settings.cwd, dataDir: settings.dataDir, parentTaskId: this.options.parentTaskId, subagentId, reuse: previous !== undefined });
      } catch (error) {
        await created?.close();
        return { ...base, taskId: childTaskId, status: "failed", error: `its own worktree could not be made: ${error instanceof Error ? error.message : String(error)}` };
      }
      this.changes.set(subagentId, { workspace: isolated, diff: "" });
    }
    const cwd = isolated?.cwd ?? settings.cwd;
    // The parent was resumed: its interrupted child goes on where it stopped, told the folder it works in (its own worktree).
    const { writer, resumed } = await openChildLog(store, created, previous, cwd);
    // MCP tools may change anything: only types given the parent's tools (or use_mcp_tool by name) get them.
    const mcp = this.mcp !== undefined && (type.tools === undefined || type.tools.includes("use_mcp_tool")) && !type.readOnly ? this.mcp : undefined;
    const ownLanguages: LanguageServers[] = [];
    const toolExecutor = createChildToolExecutor({
      settings,
      security,
      type,
      cwd,
      isolated: isolated !== undefined,
      provider,
      subagentId,
      ...(mcp ? { mcp } : {}),
      ...(this.hooks ? { hooks: this.hooks } : {}),
      ...(this.judge ? { judge: this.judge } : {}),
      ...(this.options.operations ? { operations: this.options.operations } : {}),
      // A child in its own worktree gets servers of its own (they see its files), ended with it.
      languages: (childCwd, policy) => {
        if (isolated === undefined) return this.languages;
        const own = startLanguageServers({ ...settings, cwd: childCwd }, policy);
        ownLanguages.push(own);
        return own;
      },
    });

    let result: string | undefined;
    const refusals = new RefusalCounter();
    const host = childHost(this.options.host, subagentId, (message) => {
      refusals.observe(message);
      if (message.type === "say" && message.say === "completion_result" && !message.partial) result = message.text;
    });
    const budget = security.budget;
    const current: { task?: Task } = {};
    // A writing child's checkpoints are of its own worktree (or copy); read-only children change nothing.
    const checkpoints =
      isolated !== undefined && settings.checkpoints && this.options.checkpoints !== false
        ? createCheckpoints({
            workspace: isolated.cwd,
            dataDir: settings.dataDir,
            taskId: writer.taskId,
            position: () => ({ apiHistoryLength: current.task?.apiConversationHistory.length ?? 0, uiMessageCount: current.task?.messages.messageCount ?? 0 }),
            say: (kind, text, meta) => current.task?.say(kind, text, meta ? { meta } : {}),
          })
        : undefined;
    // Each child draws from the parent's budget: the parent's and every child's spending count.
    const childBudget = budget
      ? {
          beforeRequest: () => budget.beforeRequest(addUsage(this.options.parentUsage(), this.childrenSpent())),
          beforeToolCall: () => budget.beforeToolCall(),
        }
      : undefined;
    const task: Task = new Task({
      taskId: writer.taskId,
      provider: security.wrapProvider(provider),
      toolExecutor,
      host,
      prompt: createPromptBuilder({
        workspace: cwd,
        toolExecutor,
        globalRulesDir: join(settings.userConfigDir, "rules"),
        claudeUserDir: settings.claudeUserDir,
        extraSections: async () => [subagentSection(type, subagentId)],
      }),
      protocol: settings.toolProtocol,
      mode: "act",
      yes: settings.yes,
      maxMistakes: settings.maxMistakes,
      parallelTools: settings.parallelTools,
      retrySchedule: settings.retry,
      log: security.wrapLog(writer),
      ...(childBudget ? { budget: childBudget } : {}),
      ...(security.spendCap ? { spendCap: security.spendCap } : {}),
      mcpWaitMs: settings.mcpWaitMs,
      ...(mcp ? { mcp: mcp.gate } : {}),
      createNativeToolCalls: () => new NativeToolCallAssembler(),
      ...(resumed ? { history: resumed.history } : {}),
      ...(checkpoints ? { checkpoints } : {}),
      // A long-running child compacts its own conversation as the parent does.
      // Its summary requests count in the budget and the spend caps too (its budget seam, #14, #36).
      context: new ContextManager({
        provider: security.wrapProvider(provider),
        ...(settings.context ? { settings: settings.context } : {}),
        readFile: workspaceFileReader(cwd),
      }),
    });
    current.task = task;
    // A resumed child's earlier spending is in the budget already (budgetSoFar): only this run's counts here.
    const before = resumed?.history.usage ?? zeroUsage;
    this.spending.running(subagentId, () => task.usage.totals(), before);

    const onAbort = (): void => void task.abortTask();
    request.signal.addEventListener("abort", onAbort, { once: true });
    const done = resumed ? task.resumeTask(resumed.content) : task.startTask(request.prompt);
    let release: () => void = () => undefined;
    const entry: RunningChild = { task, settled: new Promise<void>((resolve) => (release = resolve)) };
    this.running.add(entry);
    try {
      const outcome = await done;
      const totals = task.usage.totals();
      const changes = isolated === undefined ? undefined : await isolated.finish();
      // An interrupted child did not stop by itself: the hook is for children that ended.
      if (outcome.status !== "aborted") await this.subagentStop({ subagentId, childTaskId: writer.taskId, agent: type.name, status: outcome.status, ...(result === undefined ? {} : { result }) });
      if (changes !== undefined) this.changes.set(subagentId, { workspace: isolated as IsolatedWorkspace, diff: changes.diff });
      return {
        ...base,
        taskId: writer.taskId,
        status: outcome.status,
        ...(outcome.status === "completed" && result !== undefined ? { result } : {}),
        ...(outcome.error === undefined ? {} : { error: outcome.error }),
        ...(refusals.count === 0 ? {} : { refused: refusals.count }),
        ...(changes !== undefined && changes.files.length > 0 ? { changes: { ...changes, ...(isolated?.branch === undefined ? {} : { branch: isolated.branch }) } } : {}),
        ...totals,
      };
    } finally {
      request.signal.removeEventListener("abort", onAbort);
      this.running.delete(entry);
      try {
        await Promise.all(ownLanguages.map((languages) => languages.shutdown()));
        await checkpoints?.waitInitial();
        await writer.flush();
        await writer.close();
      } finally {
        release();
      }
    }
  }

  /** A child that had completed before the parent was interrupted: its report is used again, not rerun. */
  private async reuseReport(type: AgentType, previous: PreviousChild): Promise<SubagentReport> {
    const { loaded, subagentId } = previous;
    const result = loaded.uiMessages.filter((message) => message.type === "say" && message.say === "completion_result").at(-1)?.text;
    this.spending.reused(subagentId, { tokensIn: loaded.tokensIn, tokensOut: loaded.tokensOut, cost: loaded.cost });
    this.options.parentSay(`Subagent ${subagentId} (${type.name}) had completed: its report is used again (task ${previous.taskId})`, { subagentId, agent: type.name, childTaskId: previous.taskId });
    let changes: SubagentReport["changes"];
    if (!type.readOnly) {
      const isolated = await createIsolatedWorkspace({ workspace: this.options.settings.cwd, dataDir: this.options.settings.dataDir, parentTaskId: this.options.parentTaskId, subagentId, reuse: true }).catch(
        () => undefined,
      );
      const finished = await isolated?.finish().catch(() => undefined);
      if (isolated !== undefined && finished !== undefined) {
        this.changes.set(subagentId, { workspace: isolated, diff: finished.diff });
        if (finished.files.length > 0) changes = { ...finished, ...(isolated.branch === undefined ? {} : { branch: isolated.branch }) };
      }
    }
    return {
      subagentId,
      agent: type.name,
      taskId: previous.taskId,
      status: "completed",
      ...(result === undefined ? {} : { result }),
      tokensIn: loaded.tokensIn,
      tokensOut: loaded.tokensOut,
      cost: loaded.cost,
      ...(changes === undefined ? {} : { changes }),
    };
  }

  /** The hooks of the parent's session (after they were wired): SubagentStop runs when a child ends. */
  useHooks(hooks: SubagentHooks): void {
    this.hooks = hooks;
  }

  /** The SubagentStop hooks (Claude Code's event), run by the parent's hook runner in the workspace. */
  private async subagentStop(payload: { subagentId: string; childTaskId: string; agent: string; status: string; result?: string }): Promise<void> {
    if (this.hooks === undefined || !this.hooks.runner.has("SubagentStop")) return;
    await this.hooks.runner.run("SubagentStop", { ...payload, stop_hook_active: false });
  }

  mergeChanges(subagentId: string): Promise<SubagentMergeResult> {
    return this.changes.merge(subagentId);
  }

  keepChanges(subagentId: string): Promise<string | undefined> {
    return this.changes.keep(subagentId);
  }

  discardChanges(subagentId: string): Promise<void> {
    return this.changes.discard(subagentId);
  }

  /** When the parent's session ends: every worktree and branch left is removed (kept for a resume when it was interrupted). */
  async removeAll(): Promise<void> {
    if (!this.interrupted) await this.changes.discardAll();
  }

  async abortAll(): Promise<void> {
    this.interrupted = true;
    const children = [...this.running];
    await Promise.all(children.map((child) => child.task.abortTask()));
    await Promise.all(children.map((child) => child.settled));
  }
}
