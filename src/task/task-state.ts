import type { Block } from "../parser/types.js";
import type { ContentBlock } from "../llm/types.js";

/**
 * The streaming state of one round (SPEC P2, T10). Reset at the start of every
 * recursion; read and written by the stream consumer and the presenter.
 */
export class TaskState {
  abort = false;
  /** Set once `attempt_completion` (or `new_task`) was accepted. */
  completed = false;

  currentStreamingContentIndex = 0;
  assistantMessageContent: BlockList = emptyBlockList;
  didCompleteReadingStream = false;
  userMessageContent: ContentBlock[] = [];
  userMessageContentReady = false;
  didRejectTool = false;
  didAlreadyUseTool = false;
  /** A tool that may change the workspace ran in this round (checkpoint after it). */
  didRunMutatingTool = false;
  presentAssistantMessageLocked = false;
  presentAssistantMessageHasPendingUpdates = false;
  /**
   * The stream ended before the answer did (an API error after the first chunk,
   * or the output-token limit): a block still partial then never runs.
   */
  streamCut: StreamCut | undefined = undefined;

  private readyWaiters: Array<() => void> = [];

  /** SPEC T10: everything a recursion starts from. */
  resetStreamingState(blocks: BlockList): void {
    this.currentStreamingContentIndex = 0;
    this.assistantMessageContent = blocks;
    this.didCompleteReadingStream = false;
    this.userMessageContent = [];
    this.userMessageContentReady = false;
    this.didRejectTool = false;
    this.didAlreadyUseTool = false;
    this.didRunMutatingTool = false;
    this.presentAssistantMessageLocked = false;
    this.presentAssistantMessageHasPendingUpdates = false;
    this.streamCut = undefined;
    this.readyWaiters = [];
  }

  markUserMessageContentReady(): void {
    this.userMessageContentReady = true;
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const wake of waiters) wake();
  }

  /**
   * Resolves when every block of the round is presented. cairn waits on a
   * promise instead of the seed's polling; the abort path wakes it as well.
   */
  waitForUserMessageContentReady(): Promise<void> {
    if (this.userMessageContentReady || this.abort) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  wakeAllWaiters(): void {
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const wake of waiters) wake();
  }
}

/** Why an answer ended before it was complete. */
export type StreamCut = "stream_failed" | "output_limit";

/** Read access to the blocks of the answer being streamed. */
export interface BlockList {
  readonly length: number;
  at(index: number): Block | undefined;
}

const emptyBlockList: BlockList = { length: 0, at: () => undefined };
