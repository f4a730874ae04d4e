import type { ContextDriver } from "../../context/contract.js";
import type { RetrySchedule } from "../../llm/retry.js";
import type { Message, Provider } from "../../llm/types.js";
import type { Host } from "./host.js";
import type { UiMessage } from "./messages.js";
import type { PromptBuilder } from "./prompt-builder.js";
import type { CheckpointGate, McpGate, TaskHooks, TaskLog, TaskStatus } from "./seams.js";
import type { NativeToolCallAssembler } from "../../llm/native-tool-calls.js";
import type { Mode, ToolExecutor } from "./tool-executor.js";

/** How tools reach the model: described in the prompt and parsed from text, or the provider's tool calling. */
export type Protocol = "xml" | "native";

/** Native tool calls assembled from their deltas (src/llm/native-tool-calls.ts). */
export type NativeToolCallSink = Pick<NativeToolCallAssembler, "push" | "blocks" | "finish" | "toolUses">;

/** What one Task is built from: its provider, tools, host and the seams (SPEC T1). */
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
  /**
   * Messages the user typed while the task worked, drained when the next user
   * content is built: the model sees them in its very next request (issue #12).
   */
  pendingUserMessages?: () => string[];
  /** A resumed task's state. */
  history?: { apiHistory: Message[]; uiMessages: UiMessage[]; usage?: { tokensIn: number; tokensOut: number; cost: number } };
  now?: () => number;
  /** Budgets (#14, src/security/budget.ts): consulted before each request and each tool call. */
  budget?: {
    beforeRequest(usage: { tokensIn: number; tokensOut: number; cost: number }): string | undefined;
    beforeToolCall(): string | undefined;
  };
  /**
   * Spend caps across tasks (#36, src/security/spend-cap.ts): asked before each request
   * (a text means stop with the budget status) and told each request's cost after it.
   */
  spendCap?: {
    beforeRequest(): Promise<string | undefined>;
    charge(cost: number): Promise<void>;
  };
  /** Minimum interval between two partial updates of one message (default 40 ms, ~25 a second). */
  partialUpdateIntervalMs?: number;
  /** Growing blocks are presented at most once per this many ms (default 16, a frame; 0: every delta). */
  presentationFrameMs?: number;
  /** Context management (src/context): compaction before requests and after context-window errors. */
  context?: ContextDriver;
  /**
   * What is wrong with the workspace folder (it no longer exists), or undefined. Checked
   * before each request, tool call and checkpoint: a problem stops the task there as
   * failed, with everything kept, so that nothing recreates the folder behind the user.
   */
  workspaceProblem?: () => string | undefined;
}

export interface TaskResult {
  status: Exclude<TaskStatus, "running">;
  /** For failed tasks: what went wrong, for the user. */
  error?: string;
}
