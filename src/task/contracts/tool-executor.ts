import type { ImageContent, TextContent, ToolSchema } from "../../llm/types.js";
import type { ToolUseBlock } from "../../parser/types.js";
import type { AskMeta, SayMeta } from "./message-meta.js";
import type { ToolCardMeta } from "./tool-meta.js";
import type { AskResponse, AskType, SayType } from "./messages.js";

export type Mode = "plan" | "act";

/** What the Task lends a tool call: the only way a tool reaches the user. */
export interface ToolCallContext {
  /** Shows or updates a message; partial ones are updated in place by `key`. Its meta is the one declared for `type` (message-meta.ts). */
  say<T extends SayType>(type: T, text: string, options?: { partial?: boolean; meta?: SayMeta<T>; key?: string }): void;
  /** Asks the user and waits for the answer (in yes-mode the executor should not ask for approvals). */
  ask<T extends AskType>(type: T, text: string, options?: { partial?: boolean; meta?: AskMeta<T> }): Promise<AskResponse>;
  signal: AbortSignal;
  mode: Mode;
  /**
   * Waits for the checkpoints in flight (the initial one, SPEC T16, and the last turn's);
   * call before any change to the workspace. `paths` (absolute) names every file the
   * change will touch when the tool knows them exactly (a file edit): the turn's
   * checkpoint then records those files alone (docs/checkpoints.md). Without them the
   * change could touch anything (a command) and the checkpoint scans the workspace.
   */
  beforeMutation(paths?: readonly string[]): Promise<void>;
  /**
   * A PreToolUse hook's answer for this call: `allow` skips an approval ask the
   * policy lets hooks skip, `ask` asks even where the settings would not
   * (not under --yes), `ask-explicit` asks a person: --yes does not answer it
   * and no hook may (Claude Code's `permissionDecision: "ask"`).
   */
  hookApproval?: "allow" | "ask" | "ask-explicit";
  /** Why the hook asks, shown with the ask. */
  hookApprovalReason?: string;
}

export type ToolOutcomeStatus =
  /** ran and succeeded */
  | "success"
  /** ran and failed, or could not run (counts as a mistake) */
  | "error"
  /** a required parameter was missing or invalid (counts as a mistake) */
  | "mistake"
  /** the user rejected it (SPEC T14) */
  | "rejected";

export interface ToolOutcome {
  status: ToolOutcomeStatus;
  /** What goes back to the model as the tool's result. */
  content: string | Array<TextContent | ImageContent>;
  /**
   * What the call's card shows when it ends (every surface): how a command ended, and
   * for a failure a reason in a line for the user (default: the content's text).
   */
  card?: Pick<ToolCardMeta, "error" | "end" | "durationMs" | "diagnostics">;
  /** The user accepted `attempt_completion` (or `new_task`): the task ends. */
  completed?: boolean;
  /** The user switched mode (e.g. plan -> act) while answering. */
  switchMode?: Mode;
}

/**
 * The seam between the Task and every tool (SPEC T19): the Task hands each
 * tool block here and never handles a specific tool itself.
 */
export interface ToolExecutor {
  /** Native protocol: the schemas of the tools available in `mode`. */
  toolSchemas(mode: Mode): ToolSchema[];
  /** XML protocol: the tool-use section of the system prompt for `mode`. */
  promptDescriptions(mode: Mode): string;
  /** Tool names the parser must recognise (built-ins plus registered ones). */
  toolNames(): string[];
  /** Parameter names the parser must recognise. */
  parameterNames(): string[];
  /** Read-only tools run without waiting for the initial checkpoint (SPEC T16). */
  isReadOnly(name: string): boolean;
  /** A partial block: show what the call is going to do, never run it. */
  presentPartial(block: ToolUseBlock, context: ToolCallContext): void;
  /** A complete block: approve, run, and report. Never throws for tool failures. */
  executeTool(block: ToolUseBlock, context: ToolCallContext): Promise<ToolOutcome>;
  /** Kills running commands etc. when the task aborts (SPEC T5). */
  abortAll(): Promise<void>;
}

/**
 * A decorator that changes only how a complete call runs (hooks, allowed
 * tools, outcome messages, rules): every other method goes to `executor`.
 */
export function withExecuteTool(executor: ToolExecutor, executeTool: ToolExecutor["executeTool"]): ToolExecutor {
  return {
    toolSchemas: (mode) => executor.toolSchemas(mode),
    promptDescriptions: (mode) => executor.promptDescriptions(mode),
    toolNames: () => executor.toolNames(),
    parameterNames: () => executor.parameterNames(),
    isReadOnly: (name) => executor.isReadOnly(name),
    presentPartial: (block, context) => executor.presentPartial(block, context),
    abortAll: () => executor.abortAll(),
    executeTool,
  };
}
