/**
 * The child-task contract (issue #17). A tool (use_subagents) asks for child
 * tasks through this seam; the session (src/cli) implements it with the same
 * loop, a fresh conversation and the parent's provider and settings. The Task
 * itself knows nothing of it (SPEC T19): it is handed to the tool executor.
 */
import type { TaskStatus } from "./seams.js";

export interface SubagentRequest {
  /** Stable id naming the child in every message it shows (`subagentId`). */
  subagentId: string;
  prompt: string;
  /** An agent type name: `explore`, `general`, or a user-defined one. */
  agent: string;
  /** The parent's abort: aborting it stops the child (staged, as for the parent). */
  signal: AbortSignal;
}

export interface SubagentReport {
  subagentId: string;
  agent: string;
  /** The child's own task id (its log is linked from the parent's). */
  taskId: string;
  status: Exclude<TaskStatus, "running">;
  /** The child's attempt_completion result, when it completed. */
  result?: string;
  /** Why it did not complete (failed, budget). */
  error?: string;
  tokensIn: number;
  tokensOut: number;
  cost: number;
  /**
   * The child's actions that did not run because they were refused (a rule, the
   * approval policy, an approval answered no, a hook): the parent learns it from
   * cairn, not only from the child's own report. Absent when none.
   */
  refused?: number;
  /** A writing subagent worked in its own worktree (or copy): what it changed there. */
  changes?: SubagentChanges;
}

export interface SubagentChanges {
  /** Unified diff (git format) against the workspace as it was when the child started. */
  diff: string;
  files: string[];
  /** The branch that holds the child's work (a git worktree), if any. */
  branch?: string;
}

export type SubagentMergeResult = { kind: "merged"; files: string[] } | { kind: "conflict"; message: string } | { kind: "empty" };

export interface AgentTypeSummary {
  name: string;
  description: string;
  /** Changes nothing: shares the workspace without a checkpoint first. */
  readOnly: boolean;
}

/** What the use_subagents tool sees of the child-task factory. */
export interface ChildTaskFactory {
  /** The agent types a subagent may name (listed in the system prompt). */
  agentTypes(): AgentTypeSummary[];
  /** How many children run at once at most. */
  readonly maxParallel: number;
  /** A new subagent id (`explore-3`), unique within the parent task, also across its resumes. */
  newSubagentId(agent: string): string;
  /** Runs one child to its end; never throws for the child's own failures. */
  runChild(request: SubagentRequest): Promise<SubagentReport>;
  /** Stops every running child and waits until they have ended (parent abort). */
  abortAll(): Promise<void>;
  /**
   * Merges a child's changes into the workspace's working tree (uncommitted), or refuses them
   * whole; refused, they are kept as a patch file (named in the conflict's message).
   */
  mergeChanges(subagentId: string): Promise<SubagentMergeResult>;
  /** Drops a child's worktree and branch without merging (the user declined them). */
  discardChanges(subagentId: string): Promise<void>;
  /**
   * Keeps a child's changes that are not merged (it did not complete) as a patch file in the
   * data folder, then drops its worktree; returns the file, undefined when there was nothing.
   */
  keepChanges(subagentId: string): Promise<string | undefined>;
}
