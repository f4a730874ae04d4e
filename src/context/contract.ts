/**
 * The small contract between the Task and context management (DESIGN: context/ is
 * driven by the Task before each request). The Task lends the conversation; the
 * driver decides when and how to compact and commits through `replace`.
 */
import type { Message, UsageChunk } from "../llm/types.js";
import type { CompactionReason } from "./compact-conversation.js";
import type { CondenseMeta } from "./describe-compaction.js";

/** Log entries of compaction: appended, never rewriting what came before (SPEC P-perf-4). */
export type CompactionLogEntry =
  /** The conversation continues from `messages` (the old one stays earlier in the log). */
  | { kind: "api_compact"; messages: Message[]; reason: CompactionReason; summary?: string }
  /** The conversation before the last compaction was restored; `length` is the history's new length. */
  | { kind: "api_uncompact"; length: number };

/** A new conversation and the log entry that says so. */
export interface Replacement {
  messages: Message[];
  entry: CompactionLogEntry;
}

/** What the Task lends its context driver. */
export interface ConversationAccess {
  messages(): readonly Message[];
  /**
   * Under the state lock, replaces the whole conversation with what `update` makes of it as it
   * is at that moment, and appends the replacement's entry to the task log; `update` returning
   * undefined leaves it as it is (then false). A compaction computed from an earlier snapshot
   * thus keeps whatever the task added meanwhile.
   */
  replace(update: (current: readonly Message[]) => Replacement | undefined): Promise<boolean>;
  /** Shows a message (`condense` with what was summarised, warnings, notes). */
  say(type: "condense" | "warning" | "info", text: string, meta?: CondenseMeta): void;
  /** Tokens the last request filled per the provider's usage (0 when none was reported). */
  lastContextTokens(): number;
  /** A request (and its tools) is under way: a compaction asked for now waits for the next request. */
  requestInFlight?(): boolean;
  /**
   * Sends a summary request through the task's budget seam (src/task/request-budget.ts): a budget or
   * spend cap may refuse it (it throws the limit's text); the usage chunks `send` reports count in the
   * task's tokens and cost, and what they cost is charged to the spend caps.
   */
  summaryRequest?<T>(send: (addUsage: (chunk: UsageChunk) => void) => Promise<T>): Promise<T>;
  readonly signal: AbortSignal;
}

export interface ContextDriver {
  /** Called once by the Task's constructor. */
  attach(conversation: ConversationAccess): void;
  /** Before each request (after the user turn was added): compacts when the budget is spent or the user asked. */
  beforeRequest(): Promise<void>;
  /** The provider refused the request as too long: compact; false when nothing could be removed. */
  afterContextWindowError(): Promise<boolean>;
  /** Tokens used of the window, for the request's `api_req_started` message. */
  requestMeta(): { contextTokens: number; contextWindow: number };
}
