import type { UncompactState } from "../context/compaction-log.js";
import type { Message } from "../llm/types.js";
import type { TaskLogEntry, TaskStatus } from "../task/contracts/seams.js";
import type { UiMessage } from "../task/contracts/messages.js";
import type { TaskUsageCounts } from "./usage-tally.js";

/** What a task was started with; written once to `meta.json` when it is created. */
export interface TaskMeta {
  taskId: string;
  task: string;
  workspace: string;
  createdAt: number;
  /** A subagent's task (issue #17): the parent task that started it, and the child's id there. */
  parent?: { taskId: string; subagentId: string };
  /** A fork (checkpoints/fork.ts): the task it was forked from, and before which of the user's messages. */
  forkedFrom?: { taskId: string; at?: number };
  /** The model it was started with (`cairn usage --by model`). */
  model?: string;
}

/**
 * Everything the log can hold. `ui_truncate` is the store's own entry (the Task never
 * writes it): a conversation restore keeps the first `count` UI messages and drops the rest.
 */
export type StoreLogEntry = TaskLogEntry | { kind: "ui_truncate"; count: number };

/** A task read back from its log. */
export interface LoadedTask {
  meta: TaskMeta;
  /** The final state of each message id, in the order the ids first appeared. */
  uiMessages: UiMessage[];
  /** API messages with every `api_truncate` applied. */
  apiHistory: Message[];
  /** From the last status entry; "running" when there is none. */
  status: TaskStatus;
  tokensIn: number;
  tokensOut: number;
  cost: number;
  /** Damaged lines that were skipped, said plainly. Never fatal. */
  warnings: string[];
  /** Time of the last write to the log (ms), or `createdAt` when it is empty. */
  updatedAt: number;
  /** The conversation before the last compaction (for `/uncompact` after a resume). */
  uncompact?: UncompactState;
  /** Time the task ran, summed over its runs (from its messages' times; the gaps between runs do not count). */
  activeMs?: number;
  /** Requests, cache hits, tool calls and time (`cairn usage`, #36). */
  usage?: TaskUsageCounts;
}

/** One row of `cairn history`. */
export interface TaskSummary {
  taskId: string;
  /** The first words of the task. */
  title: string;
  createdAt: number;
  updatedAt: number;
  workspace: string;
  tokensIn: number;
  tokensOut: number;
  cost: number;
  status: TaskStatus;
  /** A fork's source task. */
  forkedFrom?: string;
  /** A subagent's parent task. */
  parentTaskId?: string;
  model?: string;
  /** Requests, cache hits, tool calls and time; missing from rows of earlier versions (#36). */
  usage?: TaskUsageCounts;
}

/** Where a task's conversation stands, as counted by the writer. */
export interface ConversationPosition {
  apiHistoryLength: number;
  uiMessageCount: number;
}
