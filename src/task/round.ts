import type { ContentBlock } from "../llm/types.js";
import type { Block } from "../parser/types.js";
import { toolResultContent } from "./history-content.js";
import type { Protocol } from "./history-content.js";
import type { StateLock } from "./state-lock.js";
import type { SkipReason, ToolRun } from "./tool-runner.js";

/** Why an answer ended before it was complete. */
export type StreamCut = "stream_failed" | "output_limit";

/** How far the answer's stream got: still streaming, read to its end, or cut before its end. */
export type StreamPhase = { kind: "streaming" } | { kind: "complete" } | { kind: "cut"; reason: StreamCut };

/**
 * The presenter's lock (SPEC P3): free, held, or held while more blocks arrived
 * (the run that holds it runs again). Lock + pending, not a queue.
 */
export type PresenterLock = "idle" | "presenting" | "presenting-with-pending-update";

/**
 * Where one tool call of the answer is. A call moves forward only: `pending`
 * (streaming; its preview last shown at `previewedAt`) → `running` (handed to
 * the executor) → `answered` or `rejected`; or, never run, `skipped`. The last
 * three got a result, which goes back to the model.
 */
export type ToolCallState =
  | { kind: "pending"; previewedAt: number }
  | { kind: "running" }
  /** `mutating`: the tool may have changed the workspace (checkpoint after the round). */
  | { kind: "answered"; status: "success" | "error" | "mistake"; mutating: boolean }
  | { kind: "rejected"; mutating: boolean }
  | { kind: "skipped"; reason: SkipReason };

/** Read access to the blocks of the answer being streamed. */
export interface BlockList {
  readonly length: number;
  at(index: number): Block | undefined;
}

export const emptyBlockList: BlockList = { length: 0, at: () => undefined };

/** The state a tool call's run leaves it in. */
function settledState(run: ToolRun): ToolCallState {
  switch (run.status) {
    case "skipped":
      return { kind: "skipped", reason: run.reason };
    case "rejected":
      return { kind: "rejected", mutating: run.mutating };
    default:
      return { kind: "answered", status: run.status, mutating: run.mutating };
  }
}

/**
 * Everything that belongs to one request/answer round (SPEC P2, T10), in one
 * object created fresh for each recursion. The seed resets a dozen task fields
 * by hand at the start of each round, and a forgotten reset leaks one round's
 * state into the next (#11 item 5: tool ids answered in an earlier round made a
 * later round's unanswered call with the same id look answered). A new Round
 * cannot carry anything over. The seed's flags are read from three states (the
 * stream's phase, the presenter's lock, each tool call's state), so they cannot
 * contradict each other.
 */
export class Round {
  currentStreamingContentIndex = 0;
  streamPhase: StreamPhase = { kind: "streaming" };
  presenterLock: PresenterLock = "idle";
  /** The results that become the next request's user content. */
  readonly userMessageContent: ContentBlock[] = [];
  /** Presenting this round's answer failed (not an abort): the round ends with this error. */
  presentationError: unknown = undefined;

  /** Each tool call of the answer by its id, in the order the presenter reached them. */
  private readonly toolCalls = new Map<string, ToolCallState>();
  private ready = false;
  private readyWaiters: Array<() => void> = [];

  constructor(
    /** The blocks of this round's answer, as the stream assembles them. */
    readonly assistantMessageContent: BlockList,
    private readonly options: { protocol: Protocol; parallelTools: boolean; stateLock: StateLock },
  ) {}

  get didCompleteReadingStream(): boolean {
    return this.streamPhase.kind !== "streaming";
  }

  /** The stream ended before the answer did: a block still partial then never runs. */
  get streamCut(): StreamCut | undefined {
    return this.streamPhase.kind === "cut" ? this.streamPhase.reason : undefined;
  }

  get presentAssistantMessageLocked(): boolean {
    return this.presenterLock !== "idle";
  }

  get presentAssistantMessageHasPendingUpdates(): boolean {
    return this.presenterLock === "presenting-with-pending-update";
  }

  get userMessageContentReady(): boolean {
    return this.ready;
  }

  toolCallState(id: string): ToolCallState | undefined {
    return this.toolCalls.get(id);
  }

  get didRejectTool(): boolean {
    return this.someToolCall((call) => call.kind === "rejected");
  }

  get didAlreadyUseTool(): boolean {
    return this.someToolCall((call) => call.kind === "answered" || call.kind === "rejected");
  }

  /** A tool that may change the workspace ran in this round (checkpoint after it). */
  get didRunMutatingTool(): boolean {
    return this.someToolCall((call) => (call.kind === "answered" || call.kind === "rejected") && call.mutating);
  }

  /** The tool after which the answer stopped counting: the one rejected, or the first one run when the serial gate closes after it. */
  get stoppingToolId(): string | undefined {
    for (const [id, call] of this.toolCalls) {
      if (call.kind === "rejected" || (call.kind === "answered" && !this.options.parallelTools)) return id;
    }
    return undefined;
  }

  /** Tool calls that got a result (the history keeps only those, so pairs stay whole). */
  get answeredToolIds(): ReadonlySet<string> {
    const ids = new Set<string>();
    for (const [id, call] of this.toolCalls) if (call.kind !== "pending" && call.kind !== "running") ids.add(id);
    return ids;
  }

  /** When the preview of a call still streaming was last shown (previews are throttled per call). */
  previewedAt(id: string): number | undefined {
    const call = this.toolCalls.get(id);
    return call?.kind === "pending" ? call.previewedAt : undefined;
  }

  markPreviewed(id: string, at: number): void {
    this.toolCalls.set(id, { kind: "pending", previewedAt: at });
  }

  /** A complete call is handed to the executor. */
  markRunning(id: string): void {
    this.toolCalls.set(id, { kind: "running" });
  }

  /**
   * Applies what a tool's execution (or its skipping) returned. The only writer
   * of the round's results and of a call's final state; it must run inside the
   * state lock (SPEC T8), which it checks so that a caller outside the lock fails loudly.
   */
  applyToolRun(run: ToolRun): void {
    this.options.stateLock.assertHeld("a tool result is applied to the round");
    const { block } = run;
    this.toolCalls.set(block.id, settledState(run));
    this.userMessageContent.push(...toolResultContent({ protocol: this.options.protocol, block, content: run.content, isError: run.status !== "success" }));
  }

  /** SPEC P7: every block is presented; "ready" only once the stream is complete (a block can still arrive otherwise). */
  markUserMessageContentReady(): void {
    if (this.streamPhase.kind === "streaming") return;
    this.ready = true;
    this.wakeAllWaiters();
  }

  /** Resolves when every block of the round is presented (a promise instead of the seed's polling). */
  waitForUserMessageContentReady(): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  wakeAllWaiters(): void {
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const wake of waiters) wake();
  }

  private someToolCall(test: (call: ToolCallState) => boolean): boolean {
    for (const call of this.toolCalls.values()) if (test(call)) return true;
    return false;
  }
}
