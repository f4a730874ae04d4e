/**
 * The message vocabulary shared by every surface (TUI, JSON lines, tests).
 * It follows Cline's names so users' scripts carry over.
 */
export type SayType =
  | "task"
  | "text"
  | "reasoning"
  | "tool"
  | "command"
  | "command_output"
  | "completion_result"
  | "error"
  | "error_retry"
  | "api_req_started"
  | "api_req_retried"
  | "checkpoint_created"
  | "user_feedback"
  | "mcp_server_response"
  | "mcp_notification"
  | "hook_status"
  | "empty_assistant_message"
  | "info"
  | "warning"
  | "diff_error"
  | "budget"
  /** Context compaction: what was condensed, and the summary (meta.summary). */
  | "condense"
  /** The task checklist (markdown) as the model last set it. */
  | "checklist"
  /** A tool call ended: meta `{ tool, status }` (an editor shows it as completed or failed). */
  | "tool_result";

export type AskType =
  | "tool"
  | "command"
  | "followup"
  | "completion_result"
  | "api_req_failed"
  | "mistake_limit_reached"
  | "resume_task"
  | "resume_completed_task"
  | "plan_mode_respond"
  | "use_mcp_server"
  | "empty_response"
  /** One field of a form an MCP server asks the user to fill (MCP elicitation); "no" declines the form. */
  | "elicitation";

interface UiMessageBase {
  /** Stable id: a partial message and its updates share it. */
  id: string;
  ts: number;
  text: string;
  partial: boolean;
  /** Structured detail for the surface (tool name, path, diff, exit code ...). */
  meta?: Record<string, unknown>;
  /** Set on a subagent's messages as the parent's host sees them (issue #17). */
  subagentId?: string;
}

export interface SayMessage extends UiMessageBase {
  type: "say";
  say: SayType;
}

export interface AskMessage extends UiMessageBase {
  type: "ask";
  ask: AskType;
}

export type UiMessage = SayMessage | AskMessage;

export type AskResponse =
  /**
   * `preview` (#30): "no, but show me what it would change" (src/tools/preview/): a "no" to whoever does not know it, so
   * nothing runs for real by mistake.
   */
  /** `always`: "yes, and always allow the rule the approval suggested" chosen from a menu (saved in the user's or the project's config); no message of the user's. */
  { response: "yes"; text?: string; always?: "user" | "project" } | { response: "no"; text?: string; preview?: true } | { response: "message"; text: string };

/** `always`, `always user`, `always project` (the answer text of an approved ask). */
export function alwaysAllowChoice(text: string | undefined): "user" | "project" | undefined {
  const match = /^\s*always(?:\s+allow)?(?:\s+(user|project))?\s*$/i.exec(text ?? "");
  if (match === null) return undefined;
  return match[1]?.toLowerCase() === "project" ? "project" : "user";
}
