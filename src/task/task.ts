import { defaultRetrySchedule } from "../llm/retry.js";
import type { ContentBlock, ImageContent, Message } from "../llm/types.js";
import { openStreamWithRetry, type OpenedStream } from "./attempt-api-request.js";
import { IncrementalTextCleaner } from "./clean-text.js";
import { endingOf, TaskAbortedError } from "./errors.js";
import { MessageState, type SayOptions } from "./message-state.js";
import type { ApiRequestMeta, AskMeta, RetryMeta } from "./contracts/message-meta.js";
import type { AskResponse, AskType, SayType } from "./contracts/messages.js";
import { MistakeTracker } from "./mistakes.js";
import { presentAssistantMessage, presentStreamedText, type PresenterContext } from "./present-assistant-message.js";
import * as responses from "./responses.js";
import { noCheckpoints, noHooks, noLog, noMcp, type CheckpointGate, type TaskHooks, type TaskLog } from "./contracts/seams.js";
import { StateLock } from "./state-lock.js";
import { GuardedLog } from "./guarded-log.js";
import { StreamAssembler } from "./stream-assembler.js";
import { ToolRunner } from "./tool-runner.js";
import { applyToolRun, showToolEnding, type ToolRunTarget } from "./apply-tool-run.js";
import { finishRound, saveIfInterrupted, type RoundCloser } from "./finish-round.js";
import type { RoundOutcome } from "./round-outcome.js";
import { consumeStream } from "./consume-stream.js";
import { ConversationHistory } from "./conversation-history.js";
import { FailureDecisions } from "./failure-decisions.js";
import { TaskState } from "./task-state.js";
import type { Mode } from "./contracts/tool-executor.js";
import type { TaskOptions, TaskResult } from "./contracts/task-options.js";
import { UsageCounter } from "./usage-counter.js";
import { RequestBudget } from "./request-budget.js";
import { userTurn } from "./user-turn.js";
import { RequestMessages } from "./request-messages.js";
import { McpWait } from "./mcp-wait.js";

export type { TaskOptions, TaskResult } from "./contracts/task-options.js";

/**
 * One task, one instance (SPEC T1). The seed's names are kept: startTask →
 * initiateTaskLoop → recursivelyMakeRequests → attemptApiRequest, with
 * presentAssistantMessage pushing blocks, and ask / say as the only exits.
 */
export class Task {
  readonly taskId: string;
  readonly taskState: TaskState;
  private readonly history: ConversationHistory;
  readonly messages: MessageState;
  readonly usage: UsageCounter;
  mode: Mode;

  private readonly options: TaskOptions;
  private readonly log: TaskLog;
  private readonly hooks: TaskHooks;
  private readonly mcp: McpWait;
  private readonly checkpoints: CheckpointGate;
  private readonly mistakes: MistakeTracker;
  private readonly stateLock = new StateLock();
  private readonly abortController = new AbortController();
  private readonly knownTags: ReadonlySet<string>;
  private readonly tools: ToolRunner;
  private includeFileDetails = true;
  private readonly failures: FailureDecisions;
  private readonly requestBudget: RequestBudget;
  private abortDone: Promise<void> | undefined;
  /** An error that ends the task as failed, whatever path notices it first. */
  private fatalError: Error | undefined;
  private readonly presenterContext: PresenterContext;
  private readonly closer: RoundCloser;
  private readonly toolRunTarget: ToolRunTarget;
  private readonly requests = new RequestMessages((key, meta) => this.say("api_req_started", "", meta === undefined ? { partial: true, key } : { key, meta }));

  constructor(options: TaskOptions) {
    this.options = options;
    this.taskId = options.taskId;
    this.mode = options.mode ?? "act";
    this.log = new GuardedLog(options.log ?? noLog, (message) => this.say("warning", message));
    this.hooks = options.hooks ?? noHooks;
    this.mcp = new McpWait(options.mcp ?? noMcp, (text) => this.say("warning", text));
    this.checkpoints = options.checkpoints ?? noCheckpoints;
    this.mistakes = new MistakeTracker(options.maxMistakes ?? 3);
    this.taskState = new TaskState({ protocol: options.protocol, parallelTools: options.parallelTools ?? false, stateLock: this.stateLock });
    this.history = new ConversationHistory({ log: this.log, stateLock: this.stateLock, initial: options.history?.apiHistory ?? [] });
    this.messages = new MessageState({
      host: options.host,
      log: this.log,
      now: options.now ?? Date.now,
      ...(options.partialUpdateIntervalMs === undefined ? {} : { minIntervalMs: options.partialUpdateIntervalMs }),
      initialMessages: options.history?.uiMessages ?? [],
    });
    this.usage = new UsageCounter(options.provider.model, options.history?.usage);
    this.requestBudget = new RequestBudget(options, this.usage);
    this.knownTags = new Set([...options.toolExecutor.toolNames(), ...options.toolExecutor.parameterNames()]);
    // A resumed task already sent the file listing, unless nothing of it reached the history.
    if (options.history && options.history.apiHistory.length > 0) this.includeFileDetails = false;
    this.failures = new FailureDecisions({
      yes: options.yes ?? false,
      ...(options.provider.baseUrl === undefined ? {} : { baseUrl: options.provider.baseUrl }),
      schedule: options.retrySchedule ?? defaultRetrySchedule,
      mistakes: this.mistakes,
      signal: this.abortController.signal,
      ask: (type, text, meta) => this.ask(type, text, meta),
      say: (type, text, sayOptions) => this.say(type, text, sayOptions),
    });
    this.tools = new ToolRunner({
      task: this,
      executor: options.toolExecutor,
      checkpoints: this.checkpoints,
      noteToolCall: (block) => this.mistakes.noteToolCall(block.name, block.params),
      now: options.now ?? Date.now,
      partialUpdateIntervalMs: options.partialUpdateIntervalMs ?? 40,
      ...(options.budget !== undefined ? { budget: options.budget } : {}),
    });
    this.presenterContext = {
      taskState: this.taskState,
      parallelTools: options.parallelTools ?? false,
      say: (type, text, sayOptions) => this.say(type, text, sayOptions),
      textCleaner: () => {
        const cleaner = new IncrementalTextCleaner(this.knownTags);
        return (raw, partial) => cleaner.clean(raw, partial);
      },
      presentPartialTool: (block, round) => this.tools.presentPartial(block, round),
      runTool: async (block, round) => {
        this.stopIfWorkspaceGone();
        const run = await this.tools.run(block);
        if (this.taskState.abort) throw new TaskAbortedError();
        await applyToolRun(this.toolRunTarget, round, run);
        showToolEnding(this.messages, run);
      },
      skipTool: (block, reason, round) => applyToolRun(this.toolRunTarget, round, this.tools.skip(block, reason)),
      presentAssistantMessage: () => this.presentAssistantMessage(),
    };
    this.toolRunTarget = { stateLock: this.stateLock, mistakes: this.mistakes, taskState: this.taskState, setMode: (mode) => (this.mode = mode) };
    this.closer = {
      protocol: options.protocol,
      taskState: this.taskState,
      history: this.history,
      messages: this.messages,
      failures: this.failures,
      checkpoints: this.checkpoints,
      ...(options.context ? { afterContextWindowError: () => options.context!.afterContextWindowError() } : {}),
      schedulePresentation: () => this.schedulePresentation(),
      presentStreamedText: (round) => presentStreamedText(this.presenterContext, round),
      finishRequestMessage: (extra) => this.finishRequestMessage(extra),
      stopIfWorkspaceGone: () => this.stopIfWorkspaceGone(),
    };
    options.context?.attach({
      messages: () => this.history.messages,
      replace: (update) => this.history.replace(update),
      say: (type, text, meta) => this.say(type, text, meta ? { meta } : {}),
      lastContextTokens: () => this.usage.lastContextTokens(),
      summaryRequest: (send) => this.requestBudget.summaryRequest(send),
      requestInFlight: () => this.requests.open,
      signal: this.signal,
    });
  }

  /** The API conversation so far (read-only view for hosts and checkpoints). */
  get apiConversationHistory(): readonly Message[] {
    return this.history.messages;
  }

  /** Requests made to the model by this Task (turns of this run). */
  get requestCount(): number {
    return this.requests.count;
  }

  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  // ---- the two exits to the user (SPEC T4) ----

  say<T extends SayType>(type: T, text: string, options?: SayOptions<T>): string {
    return this.messages.say(type, text, options);
  }

  /** Asks the user; the answer belongs to this ask's own id, so a `say` meanwhile cannot cancel it. */
  async ask<T extends AskType>(type: T, text: string, meta?: AskMeta<T>): Promise<AskResponse> {
    if (this.taskState.abort) throw new TaskAbortedError();
    this.messages.flushAll();
    const message = this.messages.createAsk(type, text, meta);
    let answer: AskResponse;
    try {
      answer = await this.options.host.answerAsk(message, this.signal);
    } catch (error) {
      if (this.taskState.abort && this.fatalError === undefined) throw new TaskAbortedError();
      // Nobody can answer (e.g. headless with `--on-ask fail`): the task stops here,
      // even if a tool would otherwise turn the error into a result and go on.
      this.fatalError ??= error instanceof Error ? error : new Error(String(error));
      void this.abortTask();
      throw this.fatalError;
    }
    if (this.taskState.abort) throw new TaskAbortedError();
    if (answer.text !== undefined && answer.text.trim().length > 0) {
      this.mistakes.reset(); // SPEC T9: a message from the user resets the count
      this.say("user_feedback", answer.text);
    }
    return answer;
  }

  // ---- the loop ----

  /** SPEC T18: initial content, TaskStart hook, then the loop. */
  async startTask(task: string, images: ImageContent[] = []): Promise<TaskResult> {
    this.say("task", task);
    return this.runToEnd(async () => {
      const prompt = await this.hooks.userPromptSubmit?.({ taskId: this.taskId, prompt: task });
      if (prompt?.blocked !== undefined) throw new Error(`A UserPromptSubmit hook blocked this task: ${prompt.blocked}`);
      const started = await this.hooks.taskStart({ taskId: this.taskId, task });
      this.checkpoints.startInitial();
      const hookContext = [prompt?.context, started?.context].flatMap((text) => (text === undefined ? [] : [{ type: "text" as const, text }]));
      await this.initiateTaskLoop([{ type: "text", text: `<task>\n${task}\n</task>` }, ...hookContext, ...images]);
    });
  }

  /** Continues a resumed task with prepared user content (store/resume). */
  async resumeTask(userContent: ContentBlock[]): Promise<TaskResult> {
    return this.runToEnd(async () => {
      const resumed = await this.hooks.taskResume?.({ taskId: this.taskId });
      this.checkpoints.startInitial();
      await this.initiateTaskLoop(resumed?.context === undefined ? userContent : [...userContent, { type: "text", text: resumed.context }]);
    });
  }

  private async runToEnd(body: () => Promise<void>): Promise<TaskResult> {
    let result: TaskResult;
    try {
      await body();
      result = this.taskState.completed ? { status: "completed" } : { status: "failed", error: "the task ended without completion" };
    } catch (error) {
      const ending = endingOf(error, this.fatalError, this.taskState.abort);
      if (ending.abort) await this.abortTask();
      this.say(ending.tell.type, ending.tell.text);
      result = ending.result;
    }
    this.messages.finalizeOpen();
    this.messages.flushAll();
    this.log.append({ kind: "status", status: result.status, ...this.usage.totals() });
    await this.log.flush();
    return result;
  }

  /** SPEC T3 (outer loop): a round without tools gets a reminder and another request. */
  async initiateTaskLoop(userContent: ContentBlock[]): Promise<void> {
    let nextUserContent = userContent;
    while (!this.taskState.abort) {
      const didEndLoop = await this.recursivelyMakeRequests(nextUserContent);
      if (didEndLoop) return;
      nextUserContent = [{ type: "text", text: responses.noToolsUsed(this.options.protocol) }];
      this.mistakes.record("no_tool_used");
    }
    throw new TaskAbortedError();
  }

  /**
   * SPEC T6 (middle loop): one API call and its tools, then itself with the
   * tool results. Returns true when the task ended, false when no tool was used.
   * Each round ends in one decision (`finishRound`'s outcome), and this is the
   * one place that recurses.
   */
  async recursivelyMakeRequests(userContent: ContentBlock[]): Promise<boolean> {
    const outcome = await this.makeRequest(userContent);
    switch (outcome.kind) {
      case "done":
        return true;
      case "no_tools":
        return false;
      case "continue":
      case "retry":
        return this.recursivelyMakeRequests(outcome.userContent);
    }
  }

  /** One round (SPEC T2): the request, the streamed answer and its tools, and the decision after it. */
  private async makeRequest(userContent: ContentBlock[]): Promise<RoundOutcome> {
    if (this.taskState.abort) throw new TaskAbortedError();
    this.stopIfWorkspaceGone();
    const content = await userTurn(userContent, {
      pendingUserMessages: this.options.pendingUserMessages?.() ?? [],
      say: (text) => this.say("user_feedback", text),
      ...(this.mistakes.reachedLimit() ? { atMistakeLimit: () => this.failures.atMistakeLimit() } : {}),
      environmentDetails: () => {
        const details = this.options.prompt.environmentDetails({
          mode: this.mode,
          includeFileListing: this.includeFileDetails,
          contextTokens: this.usage.lastContextTokens(),
          contextWindow: this.options.provider.model.contextWindow,
        });
        this.includeFileDetails = false;
        return details;
      },
    });
    await this.history.add({ role: "user", content });
    // The context check counts the last system prompt built: none is before a run's first request (a resumed task's too).
    if (this.requests.count === 0 && this.options.context) await this.buildSystemPrompt();
    await this.options.context?.beforeRequest();

    const assembler = StreamAssembler.forTask(this.options);
    const round = this.taskState.startRound(assembler); // SPEC T10: a new round, nothing carried over
    this.messages.forgetRound();

    const outcome = await this.requestBudget.charged(async () => {
      this.usage.startRound();
      this.requests.start();
      const opened = await this.attemptApiRequest();
      return consumeStream({
        opened,
        assembler,
        taskState: this.taskState,
        round,
        usage: this.usage,
        parallelTools: this.options.parallelTools ?? false,
        providerName: this.options.provider.name,
        schedulePresentation: () => this.schedulePresentation(),
        presentationFrameMs: this.options.presentationFrameMs ?? 16,
      });
    });
    const streamed = { round, assembler, ...outcome };
    await saveIfInterrupted(this.closer, streamed);
    return finishRound(this.closer, streamed);
  }

  private buildSystemPrompt(): Promise<string> {
    const protocol = this.options.protocol;
    return this.options.prompt.systemPrompt({ mode: this.mode, protocol, mcpSection: this.mcp.promptSection(protocol) });
  }

  /** SPEC T11, T15: waits for MCP, builds the request, and opens the stream once its first chunk is in. */
  async attemptApiRequest(): Promise<OpenedStream> {
    await this.mcp.beforeRequest(this.options.mcpWaitMs ?? 10_000, this.signal);
    const protocol = this.options.protocol;
    return openStreamWithRetry({
      provider: this.options.provider,
      providerName: this.options.provider.name,
      schedule: this.options.retrySchedule ?? defaultRetrySchedule,
      signal: this.signal,
      buildRequest: async () => ({
        systemPrompt: await this.buildSystemPrompt(),
        messages: this.history.messages,
        ...(protocol === "native" ? { tools: this.options.toolExecutor.toolSchemas(this.mode) } : {}),
        signal: this.signal,
      }),
      onRetry: ({ attempt, delayMs, error }) => {
        const meta: RetryMeta = { attempt, delayMs, retryAt: Date.now() + delayMs, kind: error.kind };
        this.say("error_retry", `${error.message} Retrying in ${Math.ceil(delayMs / 1000)} s (attempt ${attempt}).`, { meta });
      },
      onExhausted: (error) => this.failures.afterRequestFailure(error, () => this.finishRequestMessage({ cancelReason: "api_error", error: error.message })),
      onContextWindow: async () => {
        if (this.options.context) return this.options.context.afterContextWindowError();
        const removed = await this.history.shrink();
        if (removed > 0) this.say("info", responses.contextTruncated(removed));
        return removed > 0;
      },
    });
  }

  /**
   * The workspace folder is gone (deleted or moved while the task ran): the task stops as
   * failed, everything kept for `cairn resume`, before a tool could recreate the folder.
   */
  private stopIfWorkspaceGone(): void {
    const problem = this.options.workspaceProblem?.();
    if (problem === undefined) return;
    this.fatalError ??= new Error(problem);
    void this.abortTask();
    throw this.fatalError;
  }

  /** Each request's `api_req_started` ends with its tokens and cost, or its cancel reason. */
  private finishRequestMessage(extra: Pick<ApiRequestMeta, "cancelReason" | "error" | "stopReason">): void {
    this.requests.finish(() => ({ ...this.usage.roundSummary(), ...this.options.context?.requestMeta(), ...extra }));
  }

  // ---- presentation (SPEC P1–P14) ----

  private schedulePresentation(): void {
    this.presentAssistantMessage().catch((error: unknown) => {
      if (this.taskState.abort || error instanceof TaskAbortedError) return;
      this.taskState.round.presentationError = error;
      this.taskState.wakeAllWaiters();
    });
  }

  presentAssistantMessage(): Promise<void> {
    return presentAssistantMessage(this.presenterContext);
  }

  // ---- abort (SPEC T5) ----

  /**
   * Only sets the flag; every path reads it and ends itself. Staged: decide on
   * the TaskCancel hook first, set the flag, cancel what runs, run the hook last.
   */
  abortTask(): Promise<void> {
    this.abortDone ??= (async () => {
      const runCancelHook = this.hooks.hasTaskCancel() && !this.taskState.completed;
      this.taskState.abort = true;
      this.abortController.abort(new TaskAbortedError());
      this.taskState.wakeAllWaiters();
      this.hooks.cancelRunning();
      await this.options.toolExecutor.abortAll();
      if (runCancelHook) await this.hooks.taskCancel({ taskId: this.taskId });
    })();
    return this.abortDone;
  }
}
