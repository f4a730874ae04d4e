import type { CondenseMeta } from "../../context/describe-compaction.js";
import type { ChecklistItem } from "../../context/checklist.js";
import type { ProviderErrorKind } from "../../llm/types.js";
import type { AskType, SayType, UiMessage } from "./messages.js";
import type { CommandEnd, EditDiagnosticsCounts, SubagentReportMeta, ToolCard, ToolCardMeta, ToolMeta, ToolMetaOf, ToolName, UnpresentedToolFailureMeta } from "./tool-meta.js";
import type { ToolOutcomeStatus } from "./tool-executor.js";

export type { CondenseMeta };
export { diffTools, pathTools } from "./tool-meta.js";
export type { CommandEnd, PathToolName, SubagentReportMeta, ToolCard, ToolCardMeta, ToolMeta, ToolMetaByName, ToolMetaOf, ToolName, UnpresentedToolFailureMeta } from "./tool-meta.js";

/**
 * The `meta` of UI messages, typed per message kind by the code that writes
 * it (#11). Every writer (the Task, the tools, context, checkpoints, hooks,
 * MCP, subagents) is type-checked against these maps, and every reader (TUI,
 * printer, ACP, `cairn show`) gets the type by naming the kind (`metaOf`),
 * so no surface declares a shape of its own. A kind mapped to `never`
 * carries no meta. The JSON on the wire is exactly these objects.
 */

/** `api_req_started`: partial while the request runs; final with the round's usage, or why it ended early (src/task). */
export type ApiRequestMeta = {
  tokensIn: number;
  tokensOut: number;
  cacheReads: number;
  cacheWrites: number;
  /** US dollars. */
  cost: number;
  cancelReason?: "user_cancelled" | "streaming_failed" | "api_error";
  error?: string;
  /** The provider's stop reason (e.g. `max_tokens`), for hosts that end a turn with it (ACP). */
  stopReason?: string;
  /** Tokens the conversation fills of the model's window, and the window (src/context). */
  contextTokens?: number;
  contextWindow?: number;
};

/** `error_retry`: an automatic retry is scheduled for `retryAt` (ms since the epoch) (src/task). */
export type RetryMeta = {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  retryAt: number;
  kind: ProviderErrorKind;
};

/**
 * Added to a `tool` or `command` message when its call ended (#11: visible on every
 * surface): why it failed or did not run, and how a command ended.
 */
export type ToolEndMeta = Pick<ToolCardMeta, "status" | "error" | "end" | "durationMs" | "diagnostics">;

/** `command_output`: the text is the output so far; the final update says how the command ended (src/tools/builtin/execute-command.ts). */
export type CommandOutputMeta = {
  tool: "execute_command";
  end: CommandEnd;
  durationMs: number;
  /** Where the full output was saved when it was too long to keep. */
  savedPath?: string;
  /** Hosts cairn's network proxy refused to the command (#30: a Network(domain:…) rule would allow them). */
  refusedHosts?: string[];
};

/** `checkpoint_created` (src/session/checkpoint-wiring.ts). */
export type CheckpointMeta = { hash: string; reason?: string };

/** `checklist`: the task checklist as the model last set it (src/tools/task-progress.ts). */
export type ChecklistMeta = { items: ChecklistItem[]; done: number; total: number };

/** `tool_result`: a tool call ended (src/acp/tool-outcomes.ts), with how a command ended. */
export type ToolResultMeta = { tool: string; status: ToolOutcomeStatus; end?: CommandEnd; durationMs?: number; diagnostics?: EditDiagnosticsCounts };

/** `mcp_server_response`: what an MCP tool returned (src/tools/mcp/mcp-result.ts). */
export type McpResponseMeta = { tool: string; isError?: boolean };

/** `mcp_notification`: an MCP server's event or a review of its tools (src/session/mcp-wiring.ts). */
export type McpNotificationMeta = {
  severity: "info" | "warning" | "error";
  /** The hub event's type (`server_connected`, `server_log`, ...). */
  type?: string;
  server?: string;
  /** A review of the server's tool descriptions (`new_server`, `changed`). */
  review?: string;
};

/** `hook_status`: one hook run (src/hooks/describe-hook.ts), or a hook stopping the task (src/session/hook-wiring.ts). */
export type HookStatusMeta =
  | {
      event: string;
      hook: string;
      source: string;
      scope: string;
      exitCode: number | null;
      timedOut: boolean;
      cancelled: boolean;
      durationMs: number;
      decision?: string;
      updatedInput?: true;
      stopReason?: string;
      truncated?: true;
    }
  | { event: "stop"; stopReason: string };

/** `info` linking a subagent's own task log (src/session/subagents/subagent-factory.ts). */
export type SubagentLinkMeta = { subagentId: string; agent: string; childTaskId: string };

/** `info` reporting how a subagent's run ended (src/tools/builtin/use-subagents.ts). */
export type SubagentReportInfoMeta = { tool: "use_subagents"; subagentReport: SubagentReportMeta };

/** `info` that a client of `cairn serve` switched the task's mode (src/server/task-mode.ts): the log keeps it, so a resumed task keeps the mode. */
export type ModeSwitchMeta = { mode: "plan" | "act"; by: string };

/** `info` that a client of `cairn serve` chose the model a task goes on with from its next run (`POST /api/tasks/:id/model`). */
export type ModelSwitchMeta = { model: string; by: string };

/** `warning` that a subagent's changes could not be merged (a conflict), or were not because it did not complete (src/tools/builtin/use-subagents.ts). */
export type SubagentConflictMeta = { tool: "subagent_merge"; subagentId: string; status: "conflict" | "not_merged" };

/** `completion_result`: the task's result (`attempt_completion`) or a plan-mode answer. */
export type CompletionMeta = ToolMetaOf<"attempt_completion"> | ToolMetaOf<"plan_mode_respond">;

/** `api_req_failed`: the request failed for good; the user decides whether to retry (src/task/failure-decisions.ts). */
export type RequestFailedMeta = { kind: ProviderErrorKind | "empty_response"; status?: number | undefined };

/** Every `say` kind's meta (a new kind must be added here, or `SayMeta` does not compile). */
export type SayMetaByType = {
  task: never;
  text: never;
  reasoning: never;
  tool: ToolMeta | UnpresentedToolFailureMeta;
  command: ToolMetaOf<"execute_command">;
  command_output: CommandOutputMeta;
  completion_result: CompletionMeta;
  error: never;
  error_retry: RetryMeta;
  api_req_started: ApiRequestMeta;
  api_req_retried: never;
  checkpoint_created: CheckpointMeta;
  user_feedback: never;
  mcp_server_response: McpResponseMeta;
  mcp_notification: McpNotificationMeta;
  hook_status: HookStatusMeta;
  empty_assistant_message: never;
  info: SubagentLinkMeta | SubagentReportInfoMeta | ModeSwitchMeta | ModelSwitchMeta;
  warning: SubagentConflictMeta;
  diff_error: ToolMetaOf<"replace_in_file">;
  budget: never;
  condense: CondenseMeta;
  checklist: ChecklistMeta;
  tool_result: ToolResultMeta;
};

/** `elicitation`: one field of a form an MCP server asks the user to fill during a tool call (src/tools/mcp/elicitation.ts). */
export type ElicitationMeta = {
  server: string;
  /** The server's own words about what it needs. */
  message: string;
  field: string;
  type: "string" | "number" | "integer" | "boolean";
  /** The values to choose from (an enum, or true/false). */
  options?: string[];
  required: boolean;
  default?: string;
  /** This field's place in the form (from 1) and the number of fields. */
  index: number;
  count: number;
};

/** Every `ask` kind's meta. */
export type AskMetaByType = {
  tool: ToolMeta;
  command: ToolMetaOf<"execute_command">;
  followup: ToolMetaOf<"ask_followup_question">;
  completion_result: ToolMetaOf<"attempt_completion">;
  api_req_failed: RequestFailedMeta;
  mistake_limit_reached: never;
  resume_task: never;
  resume_completed_task: never;
  plan_mode_respond: ToolMetaOf<"plan_mode_respond">;
  use_mcp_server: ToolMetaOf<"use_mcp_tool"> | ToolMetaOf<"access_mcp_resource">;
  empty_response: never;
  elicitation: ElicitationMeta;
};

/** The meta a `say` of kind `T` carries (a union of kinds gives the union of their metas). */
export type SayMeta<T extends SayType> = SayMetaByType[T];

/** The meta an `ask` of kind `T` carries. */
export type AskMeta<T extends AskType> = AskMetaByType[T];

/** A message kind as readers name it: `say` kinds and `ask` kinds share one namespace where they mean the same card. */
export type MessageKind = SayType | AskType;

/** Kinds whose meta is a tool card (`cardMetaOf` reads any of them as a `ToolCard`). */
export type CardKind = "tool" | "command" | "completion_result" | "followup" | "plan_mode_respond" | "use_mcp_server";
const cardKinds: ReadonlySet<MessageKind> = new Set<CardKind>(["tool", "command", "completion_result", "followup", "plan_mode_respond", "use_mcp_server"]);

/**
 * The meta a reader gets for a message of kind `K`, whether it is said or
 * asked: what its writers declared, except that a `tool` card is read as a
 * `ToolCard` (it may be the Task's failure-only card of any tool).
 */
export type MetaOf<K extends MessageKind> = K extends "tool" ? ToolCard : (K extends SayType ? SayMeta<K> : never) | (K extends AskType ? AskMeta<K> : never);

/** The kind of a message: its `say` or its `ask`. */
export function kindOf(message: UiMessage): MessageKind {
  return message.type === "say" ? message.say : message.ask;
}

/**
 * The meta of `message` typed by its kind, or undefined when the message is of
 * another kind or carries none. The one place where the wire's untyped record
 * meets the declared shapes: every writer of kind `K` is type-checked against
 * the maps above, so a message of that kind carries that shape.
 */
export function metaOf<K extends MessageKind>(message: UiMessage, kind: K | readonly K[]): MetaOf<K> | undefined {
  const kinds: readonly MessageKind[] = typeof kind === "string" ? [kind] : kind;
  if (!kinds.includes(kindOf(message)) || message.meta === undefined) return undefined;
  return message.meta as MetaOf<K>;
}

/** The meta of any tool card (said or asked), whichever kind and tool it is. */
export function cardMetaOf(message: UiMessage): ToolCard | undefined {
  if (!cardKinds.has(kindOf(message)) || message.meta === undefined) return undefined;
  return message.meta as ToolCard;
}

/** Narrows a card's meta to the cards of the tools named (the failure-only card of an unknown tool is never one of them). */
export function isToolMeta<N extends ToolName>(meta: ToolCard | undefined, ...tools: N[]): meta is Extract<ToolCard, { tool: N }> {
  return meta !== undefined && tools.some((tool) => tool === meta.tool);
}

/** The meta of `message` when it is a card (said or asked) of one of the tools named. */
export function toolMetaOf<N extends ToolName>(message: UiMessage, ...tools: N[]): Extract<ToolCard, { tool: N }> | undefined {
  const meta = cardMetaOf(message);
  return isToolMeta(meta, ...tools) ? meta : undefined;
}

/** The meta of an ask about to be asked, when the ask is a tool card (hooks answering approvals read it). */
export function askCardMeta<T extends AskType>(type: T, meta: AskMeta<T> | undefined): ToolCard | undefined {
  if (!cardKinds.has(type) || meta === undefined) return undefined;
  return meta as ToolCard;
}

/** The meta of a client's mode switch (an `info` carrying `{mode, by}`), if `message` is one. */
export function modeSwitchOf(message: UiMessage): ModeSwitchMeta | undefined {
  const meta = message.type === "say" && message.say === "info" ? message.meta : undefined;
  const mode = meta?.["mode"];
  return mode === "plan" || mode === "act" ? { mode, by: typeof meta?.["by"] === "string" ? meta["by"] : "" } : undefined;
}

/** The meta of a client's model choice (an `info` carrying `{model, by}`), if `message` is one: no other `info` has both. */
export function modelSwitchOf(message: UiMessage): ModelSwitchMeta | undefined {
  const meta = message.type === "say" && message.say === "info" ? message.meta : undefined;
  const model = meta?.["model"];
  const by = meta?.["by"];
  return typeof model === "string" && model !== "" && typeof by === "string" ? { model, by } : undefined;
}
