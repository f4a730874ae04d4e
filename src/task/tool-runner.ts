import type { ToolUseBlock } from "../parser/types.js";
import { TaskAbortedError } from "./errors.js";
import { toolResultContent } from "./history-content.js";
import type { Protocol } from "./history-content.js";
import type { SayOptions } from "./message-state.js";
import type { AskResponse, AskType, SayType } from "./messages.js";
import type { MistakeTracker } from "./mistakes.js";
import * as responses from "./responses.js";
import type { CheckpointGate } from "./seams.js";
import type { StateLock } from "./state-lock.js";
import type { TaskState } from "./task-state.js";
import type { Mode, ToolCallContext, ToolExecutor } from "./tool-executor.js";

/** What the runner needs of its Task. */
export interface ToolRunnerTask {
  readonly taskState: TaskState;
  readonly signal: AbortSignal;
  mode: Mode;
  say(type: SayType, text: string, options?: SayOptions): string;
  ask(type: AskType, text: string, meta?: Record<string, unknown>): Promise<AskResponse>;
}

type ToolResultInput = Parameters<typeof toolResultContent>[0]["content"];

/**
 * Runs the tool blocks of an answer through the ToolExecutor (SPEC T19) and
 * keeps the score the Task needs: results for the next user turn, mistakes,
 * the serial gate, rejections, completion.
 */
export class ToolRunner {
  /** Tool calls that got a result (the history keeps only those, so pairs stay whole). */
  readonly answeredToolIds = new Set<string>();
  /** The tool after which the answer stopped counting (rejected, or the serial gate closed). */
  stoppingToolId: string | undefined;
  private readonly partialShownAt = new Map<string, number>();

  constructor(
    private readonly options: {
      task: ToolRunnerTask;
      executor: ToolExecutor;
      protocol: Protocol;
      parallelTools: boolean;
      mistakes: MistakeTracker;
      stateLock: StateLock;
      checkpoints: CheckpointGate;
      now: () => number;
      partialUpdateIntervalMs: number;
      budget?: { beforeToolCall(): string | undefined };
    },
  ) {}

  startRound(): void {
    this.stoppingToolId = undefined;
  }

  /**
   * A tool's preview of a call still streaming may look at the whole of a long
   * parameter (a file's content), so it runs at most once per update interval,
   * not on every chunk: the stream's cost stays linear (P-perf-2).
   */
  presentPartial(block: ToolUseBlock): void {
    const now = this.options.now();
    const last = this.partialShownAt.get(block.id);
    if (last !== undefined && now - last < this.options.partialUpdateIntervalMs) return;
    this.partialShownAt.set(block.id, now);
    this.options.executor.presentPartial(block, this.context());
  }

  context(): ToolCallContext {
    const task = this.options.task;
    return {
      say: (type, text, options) => {
        task.say(type, text, options);
      },
      ask: (type, text, options) => task.ask(type, text, options?.meta),
      signal: task.signal,
      mode: task.mode,
      beforeMutation: () => this.options.checkpoints.waitInitial(),
    };
  }

  /** SPEC T19: every tool goes through the executor; the Task only keeps score. */
  async run(block: ToolUseBlock): Promise<void> {
    const { executor, mistakes, task } = this.options;
    const state = task.taskState;
    const repetition = mistakes.noteToolCall(block.name, block.params);
    const readOnly = executor.isReadOnly(block.name);
    if (!readOnly) await this.options.checkpoints.waitInitial(); // SPEC T16, P10
    const overBudget = this.options.budget?.beforeToolCall();
    const outcome = overBudget !== undefined ? { status: "error" as const, content: `${block.name} did not run. ${overBudget}` } : await executor.executeTool(block, this.context());
    if (state.abort) throw new TaskAbortedError();
    if (outcome.status === "success") mistakes.reset();
    if (outcome.status === "error" || outcome.status === "mistake") mistakes.record("tool_failed");
    if (repetition === "limit") mistakes.markLimitReached();
    let content = outcome.content;
    if (repetition !== "ok") {
      const warning = responses.repeatedToolCall(block.name);
      content = typeof content === "string" ? `${content}\n\n${warning}` : [...content, { type: "text", text: warning }];
    }
    await this.record(block, content, outcome.status !== "success");
    if (outcome.status === "rejected") state.didRejectTool = true;
    if (outcome.status === "rejected" || !this.options.parallelTools) this.stoppingToolId ??= block.id;
    if (!readOnly) state.didRunMutatingTool = true;
    if (outcome.completed) state.completed = true;
    if (outcome.switchMode) task.mode = outcome.switchMode;
    state.didAlreadyUseTool = true;
  }

  /** Records that a tool was not run, with the reason the model is given. */
  skip(block: ToolUseBlock, reason: "serial" | "rejected" | "stream_failed"): void {
    const text =
      reason === "serial"
        ? responses.toolSkippedSerial(block.name)
        : reason === "rejected"
          ? responses.toolSkippedAfterRejection(block.name)
          : responses.toolSkippedAfterStreamFailure(block.name);
    void this.record(block, text, true);
  }

  private async record(block: ToolUseBlock, content: ToolResultInput, isError: boolean): Promise<void> {
    await this.options.stateLock.withStateLock(() => {
      this.answeredToolIds.add(block.id);
      this.options.task.taskState.userMessageContent.push(...toolResultContent({ protocol: this.options.protocol, block, content, isError }));
    });
  }
}
