/**
 * Small seams the Task calls at fixed points (SPEC T5, T15, T16, T18). Each has
 * a no-op default here; later parts (hooks, MCP hub, checkpoints, store) fill them.
 */
import type { CompactionLogEntry } from "../../context/contract.js";
import type { Message } from "../../llm/types.js";
import type { UiMessage } from "./messages.js";

/** What a hook adds to the next request: text already framed for the model. */
export interface HookContext {
  context?: string;
}

/** UserPromptSubmit: a hook may refuse the prompt (the reason is shown) or add context. */
export interface PromptHookResult extends HookContext {
  blocked?: string;
}

export interface TaskHooks {
  /** SPEC T18: runs before the loop starts; its context goes into the first request. */
  taskStart(payload: { taskId: string; task: string }): Promise<HookContext | void>;
  /** SPEC T5: runs last during an abort, if it was decided it must. */
  taskCancel(payload: { taskId: string }): Promise<void>;
  /** Cancels any hook still running. */
  cancelRunning(): void;
  /** Whether a TaskCancel hook is configured at all. */
  hasTaskCancel(): boolean;
  /** A resumed task: its context goes into the first request. */
  taskResume?(payload: { taskId: string }): Promise<HookContext | void>;
  /** The user's prompt, before the model sees it. */
  userPromptSubmit?(payload: { taskId: string; prompt: string }): Promise<PromptHookResult | void>;
  /** Before the history is compacted (context/ calls it); context is guidance for the summary. */
  preCompact?(payload: { taskId: string; trigger: "auto" | "manual" }): Promise<HookContext | void>;
}

export const noHooks: TaskHooks = {
  taskStart: async () => {},
  taskCancel: async () => {},
  cancelRunning: () => {},
  hasTaskCancel: () => false,
};

export interface McpStatus {
  ready: string[];
  pending: string[];
  /** Why a pending server is not ready, where it failed: the gist of its last error (absent when none did). */
  errors?: Record<string, string>;
}

/** SPEC T15: MCP servers the request waits for (at most `timeoutMs`). */
export interface McpGate {
  waitForServers(timeoutMs: number, signal: AbortSignal): Promise<McpStatus>;
  /** The prompt section listing connected servers (xml protocol shows tools too). */
  promptSection(protocol: "xml" | "native"): string;
}

export const noMcp: McpGate = {
  waitForServers: async () => ({ ready: [], pending: [] }),
  promptSection: () => "",
};

/** SPEC T16: checkpoints of the workspace, seen from the Task. */
export interface CheckpointGate {
  /** Starts the first checkpoint without waiting for it. */
  startInitial(): void;
  /** Resolves when the checkpoints started so far are done (or failed, or disabled): the first one and the last turn's. */
  waitInitial(): Promise<void>;
  /**
   * A tool that may change files ran: `paths` (absolute) are all it changed when it
   * named them (cairn's file tools), undefined when it may have changed anything (a
   * command). The next checkpoint stages only the files named since the last one,
   * unless something may have changed anything.
   */
  noteChanges(paths: readonly string[] | undefined): void;
  /** After a turn that may have changed files; returns the new hash if one was made. */
  commit(reason: "turn" | "completion"): Promise<string | undefined>;
}

export const noCheckpoints: CheckpointGate = {
  startInitial: () => {},
  waitInitial: async () => {},
  noteChanges: () => {},
  commit: async () => undefined,
};

/** One entry of a task's append-only log (SPEC P-perf-4). */
export type TaskLogEntry =
  | { kind: "ui"; message: UiMessage }
  | { kind: "api"; message: Message }
  /** The API history was cut back to `length` messages (rejection, restore). */
  | { kind: "api_truncate"; length: number }
  /** `count` messages from `start` were dropped to fit the context window (context/truncate-history `dropMessages`). */
  | { kind: "api_drop"; start: number; count: number }
  | { kind: "status"; status: TaskStatus; tokensIn: number; tokensOut: number; cost: number }
  /** Compaction and uncompact (src/context): the conversation continues from a new list. */
  | CompactionLogEntry;

export type TaskStatus = "running" | "completed" | "failed" | "aborted" | "budget";

/** Where the Task writes as it goes; the store's writer implements it. */
export interface TaskLog {
  append(entry: TaskLogEntry): void;
  /** Waits until everything appended so far is on disk. */
  flush(): Promise<void>;
}

export const noLog: TaskLog = {
  append: () => {},
  flush: async () => {},
};
