import { ProviderError, toProviderError } from "../llm/errors.js";
import { defaultRetrySchedule, retryDelay, sleep } from "../llm/retry.js";
import type { RetrySchedule } from "../llm/retry.js";
import type { Chunk, ContentBlock, Message, Provider } from "../llm/types.js";
import type { ToolUseBlock } from "../parser/types.js";
import { openStreamWithRetry } from "./attempt-api-request.js";
import type { OpenedStream } from "./attempt-api-request.js";
import { cleanTextForDisplay } from "./clean-text.js";
import { TaskAbortedError, TaskFailedError } from "./errors.js";
import { assistantHistoryContent, toolResultContent } from "./history-content.js";
import type { Protocol } from "./history-content.js";
import type { Host } from "./host.js";
import { MessageState } from "./message-state.js";
import type { SayOptions } from "./message-state.js";
import type { AskResponse, AskType, SayType, UiMessage } from "./messages.js";
import { MistakeTracker } from "./mistakes.js";
import { presentAssistantMessage } from "./present-assistant-message.js";
import type { PresenterContext } from "./present-assistant-message.js";
import type { PromptBuilder } from "./prompt-builder.js";
import * as responses from "./responses.js";
import { noCheckpoints, noHooks, noLog, noMcp } from "./seams.js";
import type { CheckpointGate, McpGate, TaskHooks, TaskLog, TaskStatus } from "./seams.js";
import { StateLock } from "./state-lock.js";
import { GuardedLog } from "./guarded-log.js";
import { StreamAssembler } from "./stream-assembler.js";
import type { NativeToolCallSink } from "./stream-assembler.js";
import { TaskState } from "./task-state.js";
import type { Mode, ToolCallContext, ToolExecutor } from "./tool-executor.js";
import { UsageCounter } from "./usage-counter.js";
import { truncateHistory } from "../context/truncate-history.js";

export interface TaskOptions {
  taskId: string;
  provider: Provider;
  toolExecutor: ToolExecutor;
  host: Host;
  prompt: PromptBuilder;
  protocol: Protocol;
  mode?: Mode;
  /** Approve everything, never ask (YOLO mode). */
  yes?: boolean;
  maxMistakes?: number;
  parallelTools?: boolean;
  retrySchedule?: RetrySchedule;
  mcpWaitMs?: number;
  log?: TaskLog;
  hooks?: TaskHooks;
  mcp?: McpGate;
  checkpoints?: CheckpointGate;
  /** Native protocol: assembles tool-call deltas into blocks. */
  createNativeToolCalls?: () => NativeToolCallSink;
  /** A resumed task's state. */
  history?: { apiHistory: Message[]; uiMessages: UiMessage[] };
  now?: () => number;
  /** Minimum interval between two partial updates of one message (default 40 ms, ~25 a second). */
  partialUpdateIntervalMs?: number;
}

export interface TaskResult {
  status: Exclude<TaskStatus, "running">;
  /** For failed tasks: what went wrong, for the user. */
  error?: string;
}

/**
 * One task, one instance (SPEC T1). The seed's names are kept: startTask →
 * initiateTaskLoop → recursivelyMakeRequests → attemptApiRequest, with
 * presentAssistantMessage pushing blocks, and ask / say as the only exits.
 */
export class Task {
  readonly taskId: string;
  readonly taskState = new TaskState();
  readonly apiConversationHistory: Message[];
  readonly messages: MessageState;
  readonly usage: UsageCounter;
  mode: Mode;

  private readonly options: TaskOptions;
  private readonly log: TaskLog;
  private readonly hooks: TaskHooks;
  private readonly mcp: McpGate;
  private readonly checkpoints: CheckpointGate;
  private readonly mistakes: MistakeTracker;
  private readonly stateLock = new StateLock();
  private readonly abortController = new AbortController();
  private readonly knownTags: ReadonlySet<string>;
  private readonly answeredToolIds = new Set<string>();
  private readonly partialToolShownAt = new Map<string, number>();
  private presentationError: unknown;
  private includeFileDetails = true;
  private streamFailures = 0;
  private abortDone: Promise<void> | undefined;
  /** An error that ends the task as failed, whatever path notices it first. */
  private fatalError: Error | undefined;
  private readonly presenterContext: PresenterContext;
  private requestCounter = 0;
  private currentRequestKey: string | undefined;
  /** The tool after which the answer stopped counting (rejected, or the serial gate closed). */
  private stoppingToolId: string | undefined;

  constructor(options: TaskOptions) {
    this.options = options;
    this.taskId = options.taskId;
    this.mode = options.mode ?? "act";
    this.log = new GuardedLog(options.log ?? noLog, (message) => this.say("warning", message));
    this.hooks = options.hooks ?? noHooks;
    this.mcp = options.mcp ?? noMcp;
    this.checkpoints = options.checkpoints ?? noCheckpoints;
    this.mistakes = new MistakeTracker(options.maxMistakes ?? 3);
    this.apiConversationHistory = [...(options.history?.apiHistory ?? [])];
    this.messages = new MessageState({
      host: options.host,
      log: this.log,
      now: options.now ?? Date.now,
      ...(options.partialUpdateIntervalMs === undefined ? {} : { minIntervalMs: options.partialUpdateIntervalMs }),
      initialMessages: options.history?.uiMessages ?? [],
    });
    this.usage = new UsageCounter(options.provider.model);
    this.knownTags = new Set([...options.toolExecutor.toolNames(), ...options.toolExecutor.parameterNames()]);
    if (options.history) this.includeFileDetails = false;
    this.presenterContext = {
      taskState: this.taskState,
      parallelTools: options.parallelTools ?? false,
      say: (type, text, sayOptions) => this.say(type, text, sayOptions),
      cleanText: (raw, partial) => cleanTextForDisplay(raw, partial, this.knownTags),
      presentPartialTool: (block) => this.presentPartialTool(block),
      runTool: (block) => this.runTool(block),
      skipTool: (block, reason) => this.skipTool(block, reason),
      presentAssistantMessage: () => this.presentAssistantMessage(),
    };
  }

  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  // ---- the two exits to the user (SPEC T4) ----

  say(type: SayType, text: string, options?: SayOptions): string {
    return this.messages.say(type, text, options);
  }

  /** Asks the user; the answer belongs to this ask's own id, so a `say` meanwhile cannot cancel it. */
  async ask(type: AskType, text: string, meta?: Record<string, unknown>): Promise<AskResponse> {
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
  async startTask(task: string): Promise<TaskResult> {
    this.say("task", task);
    return this.runToEnd(async () => {
      await this.hooks.taskStart({ taskId: this.taskId, task });
      this.checkpoints.startInitial();
      await this.initiateTaskLoop([{ type: "text", text: `<task>\n${task}\n</task>` }]);
    });
  }

  /** Continues a resumed task with prepared user content (store/resume). */
  async resumeTask(userContent: ContentBlock[]): Promise<TaskResult> {
    return this.runToEnd(async () => {
      this.checkpoints.startInitial();
      await this.initiateTaskLoop(userContent);
    });
  }

  private async runToEnd(body: () => Promise<void>): Promise<TaskResult> {
    let result: TaskResult;
    try {
      await body();
      result = this.taskState.completed ? { status: "completed" } : { status: "failed", error: "the task ended without completion" };
    } catch (error) {
      if (this.fatalError) {
        await this.abortTask();
        this.say("error", this.fatalError.message);
        result = { status: "failed", error: this.fatalError.message };
      } else if (error instanceof TaskAbortedError || this.taskState.abort) {
        await this.abortTask();
        this.say("info", "Task interrupted. Nothing done so far is lost: it can be resumed.");
        result = { status: "aborted" };
      } else {
        const message = error instanceof Error ? error.message : String(error);
        this.say("error", message);
        result = { status: "failed", error: message };
      }
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
   */
  async recursivelyMakeRequests(userContent: ContentBlock[]): Promise<boolean> {
    if (this.taskState.abort) throw new TaskAbortedError();
    const content = [...userContent];
    if (this.mistakes.reachedLimit()) await this.handleMistakeLimit(content);

    const environment = await this.options.prompt.environmentDetails({
      mode: this.mode,
      includeFileListing: this.includeFileDetails,
      contextTokens: this.usage.lastContextTokens(),
      contextWindow: this.options.provider.model.contextWindow,
    });
    this.includeFileDetails = false;
    content.push({ type: "text", text: environment });
    await this.addToHistory({ role: "user", content });

    const assembler = new StreamAssembler({
      protocol: this.options.protocol,
      parser: { toolNames: this.options.toolExecutor.toolNames(), parameterNames: this.options.toolExecutor.parameterNames() },
      ...(this.options.protocol === "native" && this.options.createNativeToolCalls ? { nativeToolCalls: this.options.createNativeToolCalls() } : {}),
    });
    this.taskState.resetStreamingState(assembler); // SPEC T10
    this.stoppingToolId = undefined;
    this.presentationError = undefined;

    this.requestCounter += 1;
    const requestKey = `api_req:${this.requestCounter}`;
    this.currentRequestKey = requestKey;
    this.usage.startRound();
    this.say("api_req_started", "", { partial: true, key: requestKey });
    const opened = await this.attemptApiRequest();
    const outcome = await this.consumeStream(opened, assembler);
    return this.finishRound({ assembler, ...outcome });
  }

  /** SPEC T11, T15: waits for MCP, builds the request, and opens the stream once its first chunk is in. */
  async attemptApiRequest(): Promise<OpenedStream> {
    const status = await this.mcp.waitForServers(this.options.mcpWaitMs ?? 10_000, this.signal);
    if (status.pending.length > 0) this.say("warning", `MCP servers not ready yet, going on without them: ${status.pending.join(", ")}`);
    const protocol = this.options.protocol;
    return openStreamWithRetry({
      provider: this.options.provider,
      providerName: this.options.provider.name,
      schedule: this.options.retrySchedule ?? defaultRetrySchedule,
      signal: this.signal,
      buildRequest: async () => ({
        systemPrompt: await this.options.prompt.systemPrompt({ mode: this.mode, protocol, mcpSection: this.mcp.promptSection(protocol) }),
        messages: this.apiConversationHistory,
        ...(protocol === "native" ? { tools: this.options.toolExecutor.toolSchemas(this.mode) } : {}),
        signal: this.signal,
      }),
      onRetry: ({ attempt, delayMs, error }) => {
        this.say("error_retry", `${error.message} Retrying in ${Math.ceil(delayMs / 1000)} s (attempt ${attempt}).`, {
          meta: { attempt, delayMs, retryAt: Date.now() + delayMs, kind: error.kind },
        });
      },
      onExhausted: (error) => this.askApiRequestFailed(error),
      onContextWindow: () => this.shrinkHistory(),
    });
  }

  private async askApiRequestFailed(error: ProviderError): Promise<"retry" | "give_up"> {
    const giveUp = (): never => {
      this.finishRequestMessage({ cancelReason: "api_error", error: error.message });
      throw new TaskFailedError(`The model provider failed: ${error.message}`);
    };
    if (this.options.yes) giveUp();
    const answer = await this.ask("api_req_failed", error.message, { kind: error.kind, status: error.status });
    if (answer.response === "no") giveUp();
    this.say("api_req_retried", "");
    return "retry";
  }

  private async shrinkHistory(): Promise<boolean> {
    return this.stateLock.withStateLock(() => {
      const result = truncateHistory(this.apiConversationHistory);
      if (result.removed === 0) return false;
      this.apiConversationHistory.splice(0, this.apiConversationHistory.length, ...result.messages);
      this.log.append({ kind: "api_truncate", length: 0 });
      for (const message of this.apiConversationHistory) this.log.append({ kind: "api", message });
      this.say("info", responses.contextTruncated(result.removed));
      return true;
    });
  }

  /** SPEC T12: each chunk kind has its own handler; the stream stops early on rejection or after a serial tool. */
  private async consumeStream(
    opened: OpenedStream,
    assembler: StreamAssembler,
  ): Promise<{ rawText: string; note?: string; streamError?: ProviderError }> {
    const state = this.taskState;
    let rawText = "";
    let note: string | undefined;
    let streamError: ProviderError | undefined;
    const { iterator } = opened;
    let next: IteratorResult<Chunk> = opened.first;
    try {
      while (!next.done) {
        const chunk = next.value;
        switch (chunk.type) {
          case "usage":
            this.usage.add(chunk);
            break;
          case "text":
            rawText += chunk.text;
            assembler.pushText(chunk.text);
            this.schedulePresentation();
            break;
          case "reasoning":
            assembler.pushReasoning(chunk);
            this.schedulePresentation();
            break;
          case "tool_call":
            assembler.pushToolCall(chunk);
            this.schedulePresentation();
            break;
          case "stop":
            break;
        }
        if (state.abort) break;
        if (state.didRejectTool) {
          note = responses.interruptedByUserFeedback; // SPEC T14
          break;
        }
        if (state.didAlreadyUseTool && !this.options.parallelTools) {
          note = responses.interruptedByToolUse; // SPEC P5: the stream stops after the first tool
          break;
        }
        next = await iterator.next();
      }
    } catch (error) {
      if (!state.abort) {
        streamError = error instanceof ProviderError ? error : toProviderError(error, { providerName: this.options.provider.name });
        if (streamError.kind === "aborted") streamError = undefined;
      }
    } finally {
      if (next.done !== true) void iterator.return?.().catch(() => undefined);
    }
    if (state.abort) await this.saveInterruptedRound(assembler, rawText);
    return { rawText, ...(note ? { note } : {}), ...(streamError ? { streamError } : {}) };
  }

  private async finishRound(round: {
    assembler: StreamAssembler;
    rawText: string;
    note?: string;
    streamError?: ProviderError;
  }): Promise<boolean> {
    const state = this.taskState;
    const { assembler, streamError } = round;
    if (streamError) {
      state.didStreamFail = true; // nothing half-streamed runs
    } else {
      assembler.finish(); // SPEC T17
    }
    state.didCompleteReadingStream = true;
    this.schedulePresentation();
    await state.waitForUserMessageContentReady();
    if (state.abort) await this.saveInterruptedRound(assembler, round.rawText);
    if (this.presentationError !== undefined) {
      throw this.presentationError instanceof Error ? this.presentationError : new Error("presenting the answer failed", { cause: this.presentationError });
    }
    this.finishRequestMessage(streamError ? { cancelReason: "streaming_failed", error: streamError.message } : {});
    this.messages.finalizeOpen();

    let note = round.note;
    if (state.didRejectTool) note = responses.interruptedByUserFeedback; // SPEC T14, also when the stream had ended
    if (streamError) note = responses.interruptedByApiError(streamError.message);
    const blocks = assembler.toArray();
    const assistantContent = assistantHistoryContent({
      protocol: this.options.protocol,
      blocks,
      rawText: round.rawText,
      answeredToolIds: this.answeredToolIds,
      toolInput: (id) => assembler.toolInput(id),
      ...(note ? { note } : {}),
      ...(this.stoppingToolId ? { cutAfterToolId: this.stoppingToolId } : {}),
    });
    const hasToolUse = blocks.some((block) => block.type === "tool_use");
    const hasText = blocks.some((block) => block.type === "text" && block.content.trim().length > 0);
    if (!hasToolUse && !hasText && !streamError) return this.handleEmptyResponse(assistantContent);
    await this.addToHistory({ role: "assistant", content: assistantContent });

    if (streamError) return this.retryAfterStreamFailure(streamError);
    this.streamFailures = 0;
    if (state.completed) {
      await this.checkpoints.commit("completion");
      return true;
    }
    if (!hasToolUse) return false;
    if (state.didRunMutatingTool) await this.checkpoints.commit("turn");
    return this.recursivelyMakeRequests(state.userMessageContent);
  }

  /** SPEC T13: an answer with neither text nor tool use is recorded and a retry is offered. */
  private async handleEmptyResponse(assistantContent: ContentBlock[]): Promise<boolean> {
    this.say("empty_assistant_message", "The model returned an empty answer.");
    await this.addToHistory({
      role: "assistant",
      content: assistantContent.length > 0 ? assistantContent : [{ type: "text", text: "Failure: I did not provide a response." }],
    });
    this.mistakes.record("empty_response");
    if (!this.options.yes) {
      const answer = await this.ask("api_req_failed", "The model returned an empty answer. Retry?", { kind: "empty_response" });
      if (answer.response === "no") throw new TaskFailedError("The model returned an empty answer.");
    }
    return this.recursivelyMakeRequests([{ type: "text", text: responses.emptyAnswerRetry() }]);
  }

  /** A stream that failed after its first chunk: keep what completed, retry on the same schedule. */
  private async retryAfterStreamFailure(error: ProviderError): Promise<boolean> {
    const delayMs = retryDelay(this.streamFailures, error, this.options.retrySchedule ?? defaultRetrySchedule);
    if (delayMs === undefined) {
      if (this.options.yes) throw new TaskFailedError(`The model provider failed mid-answer: ${error.message}`);
      const answer = await this.ask("api_req_failed", error.message, { kind: error.kind, status: error.status });
      if (answer.response === "no") throw new TaskFailedError(`The model provider failed mid-answer: ${error.message}`);
      this.streamFailures = 0;
    } else {
      this.streamFailures += 1;
      this.say("error_retry", `${error.message} Retrying in ${Math.ceil(delayMs / 1000)} s.`, {
        meta: { attempt: this.streamFailures, delayMs, retryAt: Date.now() + delayMs, kind: error.kind },
      });
      try {
        await sleep(delayMs, this.signal);
      } catch {
        throw new TaskAbortedError();
      }
    }
    const content = [...this.taskState.userMessageContent, { type: "text" as const, text: responses.continueAfterApiError(error.message) }];
    return this.recursivelyMakeRequests(content);
  }

  /**
   * SPEC T5: an aborted round keeps what it had: the partial answer, marked as
   * interrupted, and the results of tools that finished, so resume loses nothing.
   */
  private async saveInterruptedRound(assembler: StreamAssembler, rawText: string): Promise<never> {
    this.finishRequestMessage({ cancelReason: "user_cancelled" });
    this.messages.finalizeOpen();
    const assistantContent = assistantHistoryContent({
      protocol: this.options.protocol,
      blocks: assembler.toArray(),
      rawText,
      answeredToolIds: this.answeredToolIds,
      toolInput: (id) => assembler.toolInput(id),
      note: responses.interruptedByUser,
    });
    await this.addToHistory({ role: "assistant", content: assistantContent });
    const results = this.taskState.userMessageContent;
    if (results.length > 0) await this.addToHistory({ role: "user", content: [...results] });
    throw new TaskAbortedError();
  }

  /** Each request's `api_req_started` ends with its tokens and cost, or its cancel reason. */
  private finishRequestMessage(extra: Record<string, unknown>): void {
    if (this.currentRequestKey === undefined) return;
    this.say("api_req_started", "", { key: this.currentRequestKey, meta: { ...this.usage.roundSummary(), ...extra } });
    this.currentRequestKey = undefined;
  }

  private async handleMistakeLimit(content: ContentBlock[]): Promise<void> {
    const limit = this.mistakes.limit;
    if (this.options.yes) throw new TaskFailedError(`The model made ${limit} mistakes in a row; stopping (limit --max-mistakes ${limit}).`);
    const answer = await this.ask(
      "mistake_limit_reached",
      `The model made ${limit} mistakes in a row. Give it guidance, or stop the task.`,
    );
    if (answer.response === "no") throw new TaskFailedError("Stopped by the user at the mistake limit.");
    content.push({ type: "text", text: responses.tooManyMistakes(answer.text) });
    this.mistakes.reset();
    this.mistakes.resetRepetition();
  }

  private async addToHistory(message: Message): Promise<void> {
    await this.stateLock.withStateLock(() => {
      this.apiConversationHistory.push(message);
      this.log.append({ kind: "api", message });
    });
  }

  // ---- presentation (SPEC P1–P14) ----

  private schedulePresentation(): void {
    this.presentAssistantMessage().catch((error: unknown) => {
      if (this.taskState.abort || error instanceof TaskAbortedError) return;
      this.presentationError = error;
      this.taskState.wakeAllWaiters();
    });
  }

  presentAssistantMessage(): Promise<void> {
    return presentAssistantMessage(this.presenterContext);
  }

  /**
   * A tool's preview of a call still streaming may look at the whole of a long
   * parameter (a file's content), so it runs at most once per update interval,
   * not on every chunk: the stream's cost stays linear (P-perf-2).
   */
  private presentPartialTool(block: ToolUseBlock): void {
    const now = (this.options.now ?? Date.now)();
    const interval = this.options.partialUpdateIntervalMs ?? 40;
    const last = this.partialToolShownAt.get(block.id);
    if (last !== undefined && now - last < interval) return;
    this.partialToolShownAt.set(block.id, now);
    this.options.toolExecutor.presentPartial(block, this.toolCallContext());
  }

  private toolCallContext(): ToolCallContext {
    return {
      say: (type, text, options) => {
        this.say(type, text, options);
      },
      ask: (type, text, options) => this.ask(type, text, options?.meta),
      signal: this.signal,
      mode: this.mode,
      beforeMutation: () => this.checkpoints.waitInitial(),
    };
  }

  /** SPEC T19: every tool goes through the executor; the Task only keeps score. */
  private async runTool(block: ToolUseBlock): Promise<void> {
    const executor = this.options.toolExecutor;
    const repetition = this.mistakes.noteToolCall(block.name, block.params);
    const readOnly = executor.isReadOnly(block.name);
    if (!readOnly) await this.checkpoints.waitInitial(); // SPEC T16, P10
    const outcome = await executor.executeTool(block, this.toolCallContext());
    if (this.taskState.abort) throw new TaskAbortedError();
    if (outcome.status === "success") this.mistakes.reset();
    if (outcome.status === "error" || outcome.status === "mistake") this.mistakes.record("tool_failed");
    if (repetition === "limit") this.mistakes.markLimitReached();
    let resultContent = outcome.content;
    if (repetition !== "ok") {
      const warning = responses.repeatedToolCall(block.name);
      resultContent = typeof resultContent === "string" ? `${resultContent}\n\n${warning}` : [...resultContent, { type: "text", text: warning }];
    }
    await this.recordToolResult(block, resultContent, outcome.status !== "success");
    if (outcome.status === "rejected") this.taskState.didRejectTool = true;
    if (outcome.status === "rejected" || !this.options.parallelTools) this.stoppingToolId ??= block.id;
    if (!readOnly) this.taskState.didRunMutatingTool = true;
    if (outcome.completed) this.taskState.completed = true;
    if (outcome.switchMode) this.mode = outcome.switchMode;
    this.taskState.didAlreadyUseTool = true;
  }

  private skipTool(block: ToolUseBlock, reason: "serial" | "rejected" | "stream_failed"): void {
    const text =
      reason === "serial"
        ? responses.toolSkippedSerial(block.name)
        : reason === "rejected"
          ? responses.toolSkippedAfterRejection(block.name)
          : responses.toolSkippedAfterStreamFailure(block.name);
    void this.recordToolResult(block, text, true);
  }

  private async recordToolResult(block: ToolUseBlock, content: ToolResultInput, isError: boolean): Promise<void> {
    await this.stateLock.withStateLock(() => {
      this.answeredToolIds.add(block.id);
      this.taskState.userMessageContent.push(...toolResultContent({ protocol: this.options.protocol, block, content, isError }));
    });
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

type ToolResultInput = Parameters<typeof toolResultContent>[0]["content"];
