import type { ContextDriver } from "../context/contract.js";
import type { RetrySchedule } from "../llm/retry.js";
import type { Message, Provider } from "../llm/types.js";
import type { Protocol } from "./history-content.js";
import type { Host } from "./host.js";
import type { UiMessage } from "./messages.js";
import type { PromptBuilder } from "./prompt-builder.js";
import type { CheckpointGate, McpGate, TaskHooks, TaskLog, TaskStatus } from "./seams.js";
import type { NativeToolCallSink } from "./stream-assembler.js";
import type { Mode, ToolExecutor } from "./tool-executor.js";

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
  /** A resumed task's state. */
  history?: { apiHistory: Message[]; uiMessages: UiMessage[] };
  now?: () => number;
  /** Minimum interval between two partial updates of one message (default 40 ms, ~25 a second). */
  partialUpdateIntervalMs?: number;
  /** Context management (src/context): compaction before requests and after context-window errors. */
  context?: ContextDriver;
}

export interface TaskResult {
  status: Exclude<TaskStatus, "running">;
  /** For failed tasks: what went wrong, for the user. */
  error?: string;
}
