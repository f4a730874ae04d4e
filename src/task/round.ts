import type { ContentBlock } from "../llm/types.js";
import type { Block } from "../parser/types.js";
import { toolResultContent } from "./history-content.js";
import type { Protocol } from "./history-content.js";
import type { StateLock } from "./state-lock.js";
import type { ToolRun } from "./tool-runner.js";

/** Why an answer ended before it was complete. */
export type StreamCut = "stream_failed" | "output_limit";

/** Read access to the blocks of the answer being streamed. */
export interface BlockList {
  readonly length: number;
  at(index: number): Block | undefined;
}

export const emptyBlockList: BlockList = { length: 0, at: () => undefined };

/** What applying a tool's run changed beyond the round itself, for the Task to carry out. */
export interface AppliedToolRun {
  /** The tool ended the task (attempt_completion accepted). */
  completed: boolean;
}

/**
 * Everything that belongs to one request/answer round (SPEC P2, T10), in one
 * object created fresh for each recursion. The seed resets a dozen task fields
 * by hand at the start of each round, and a forgotten reset leaks one round's
 * state into the next (#11 item 5: tool ids answered in an earlier round made a
 * later round's unanswered call with the same id look answered). A new Round
 * cannot carry anything over.
 */
export class Round {
  currentStreamingContentIndex = 0;
  didCompleteReadingStream = false;
  /** The results that become the next request's user content. */
  readonly userMessageContent: ContentBlock[] = [];
  userMessageContentReady = false;
  didRejectTool = false;
  didAlreadyUseTool = false;
  /** A tool that may change the workspace ran in this round (checkpoint after it). */
  didRunMutatingTool = false;
  presentAssistantMessageLocked = false;
  presentAssistantMessageHasPendingUpdates = false;
  /** The stream ended before the answer did: a block still partial then never runs. */
  streamCut: StreamCut | undefined = undefined;
  /** Tool calls that got a result (the history keeps only those, so pairs stay whole). */
  readonly answeredToolIds = new Set<string>();
  /** The tool after which the answer stopped counting (rejected, or the serial gate closed). */
  stoppingToolId: string | undefined = undefined;
  /** Presenting this round's answer failed (not an abort): the round ends with this error. */
  presentationError: unknown = undefined;
  /** When each streaming call was last previewed (previews are throttled per call). */
  readonly partialShownAt = new Map<string, number>();

  private readyWaiters: Array<() => void> = [];

  constructor(
    /** The blocks of this round's answer, as the stream assembles them. */
    readonly assistantMessageContent: BlockList,
    private readonly options: { protocol: Protocol; parallelTools: boolean; stateLock: StateLock },
  ) {}

  /**
   * Applies what a tool's execution (or its skipping) returned. The only writer
   * of the round's results and tool flags; it must run inside the state lock
   * (SPEC T8), which it checks so that a caller outside the lock fails loudly.
   */
  applyToolRun(run: ToolRun): AppliedToolRun {
    this.options.stateLock.assertHeld("a tool result is applied to the round");
    const { block } = run;
    this.answeredToolIds.add(block.id);
    this.userMessageContent.push(...toolResultContent({ protocol: this.options.protocol, block, content: run.content, isError: run.status !== "success" }));
    if (run.status === "skipped") return { completed: false };
    if (run.status === "rejected") this.didRejectTool = true;
    if (run.status === "rejected" || !this.options.parallelTools) this.stoppingToolId ??= block.id;
    if (run.mutating) this.didRunMutatingTool = true;
    this.didAlreadyUseTool = true;
    return { completed: run.completed };
  }

  markUserMessageContentReady(): void {
    this.userMessageContentReady = true;
    this.wakeAllWaiters();
  }

  /** Resolves when every block of the round is presented (a promise instead of the seed's polling). */
  waitForUserMessageContentReady(): Promise<void> {
    if (this.userMessageContentReady) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  wakeAllWaiters(): void {
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const wake of waiters) wake();
  }
}
