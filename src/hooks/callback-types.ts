/**
 * Hooks given as functions by the program that embeds cairn (the SDK), in the
 * shape of the Claude Agent SDK's `hooks` option. A callback is told what a
 * command hook in Claude Code's format reads on stdin (already parsed) and
 * answers what such a hook may print: see docs/hooks.md, "Protocol".
 */
import type { EventsOfAlias, HookEvent, HookEventAlias } from "./events.js";

/** The names a callback may be given under: cairn's events and Claude Code's names for them. */
export type HookCallbackEventName = HookEvent | HookEventAlias;

/** What every input carries (the session's fields; a bare `HookRunner` sends only those its `basePayload` gives). */
export interface HookCallbackCommonInput {
  /** The task id. */
  session_id: string;
  /** The task's log (cairn's format, not Claude Code's). */
  transcript_path: string;
  cwd: string;
  permission_mode: "default" | "plan" | "bypassPermissions";
  /** cairn's own fields. */
  workspace: string;
  model: string;
  provider: string;
}

interface ToolCallFields {
  /** Claude Code's name for the tool (`Bash`, `Write`, `Edit`, `MultiEdit`, `Read`, `Grep`, `Glob`, `mcp__server__tool` ...), else cairn's. */
  tool_name: string;
  /** Claude Code's input shape for the tool, with absolute paths (docs/hooks.md, "Tool names"). */
  tool_input: Record<string, unknown>;
  tool_use_id: string;
}

/** The fields each of cairn's events adds. */
export interface HookCallbackEventFields {
  TaskStart: { source: "startup"; task: string };
  TaskResume: { source: "resume" };
  TaskCancel: { reason: string };
  TaskComplete: { result: string; stop_hook_active: boolean };
  UserPromptSubmit: { prompt: string };
  PreToolUse: ToolCallFields;
  /** `tool_response` is Claude Code's response shape for the tool (`{stdout, stderr, ...}` for Bash ...). */
  PostToolUse: ToolCallFields & { tool_response: unknown };
  PostToolUseFailure: ToolCallFields & { error: string; is_interrupt: boolean };
  PreCompact: { trigger: string; custom_instructions: string };
  Notification: { message: string; notification_type: string };
  PermissionRequest: ToolCallFields & { message: string };
  SubagentStop: { subagentId: string; childTaskId: string; agent: string; status: string; result?: string; stop_hook_active: boolean };
}

/** The cairn events a name stands for (`SessionStart`: TaskStart and TaskResume). */
export type EventsNamed<Name extends HookCallbackEventName> = Name extends HookEventAlias ? EventsOfAlias[Name] : Name & HookEvent;

/** What a callback registered under `Name` is given: one shape per cairn event the name stands for, told apart by `cairn_event`. */
export type HookCallbackInputOf<Name extends HookCallbackEventName> = {
  [Event in EventsNamed<Name>]: HookCallbackCommonInput & { hook_event_name: Name; cairn_event: Event } & HookCallbackEventFields[Event];
}[EventsNamed<Name>];

export type HookCallbackInput = { [Name in HookCallbackEventName]: HookCallbackInputOf<Name> }[HookCallbackEventName];

/** `hookSpecificOutput` as cairn reads it. */
export type HookCallbackSpecificOutput =
  | {
      hookEventName: "PreToolUse";
      /** `deny` blocks the call (the reason goes to the model), `ask` makes a person confirm it, `allow` skips the approval ask where the rules let a hook. */
      permissionDecision?: "allow" | "deny" | "ask";
      permissionDecisionReason?: string;
      /** The call's new input, in the shape `tool_input` had (whole, or only the fields that change). */
      updatedInput?: Record<string, unknown>;
      additionalContext?: string;
    }
  | { hookEventName: "PermissionRequest"; decision: { behavior: "allow" } | { behavior: "deny"; message?: string } }
  | { hookEventName: Exclude<HookCallbackEventName, "PreToolUse" | "PermissionRequest">; additionalContext?: string };

/** What a callback may answer: what a command hook may print (Claude Code's hook output). */
export interface HookCallbackOutput {
  /** `false` stops the task (with `stopReason`). */
  continue?: boolean;
  stopReason?: string;
  /** `block`: PreToolUse blocks the call, UserPromptSubmit refuses the prompt, PostToolUse tells the model `reason`, Stop says the task is not finished. */
  decision?: "approve" | "block";
  reason?: string;
  /** A line shown to the user. */
  systemMessage?: string;
  hookSpecificOutput?: HookCallbackSpecificOutput;
}

/**
 * One callback. It may answer nothing (`undefined`): the action goes on. A
 * callback that throws or outlives its timeout blocks what it guards
 * (PreToolUse, PermissionRequest, UserPromptSubmit) and is reported.
 */
export type HookCallback<Name extends HookCallbackEventName = HookCallbackEventName> = (
  input: HookCallbackInputOf<Name>,
  toolUseId: string | undefined,
  options: { signal: AbortSignal },
) => Promise<HookCallbackOutput | undefined | void> | HookCallbackOutput | undefined | void;

export interface HookCallbackMatcher<Name extends HookCallbackEventName = HookCallbackEventName> {
  /** Claude Code's matcher (tool names for tool events, `startup` / `resume` for SessionStart); absent matches all. */
  matcher?: string;
  hooks: ReadonlyArray<HookCallback<Name>>;
  /** Seconds, as in Claude Code (default 60). */
  timeout?: number;
}

/** The SDK's `hooks` option: callbacks by event name. */
export type HookCallbacks = { [Name in HookCallbackEventName]?: ReadonlyArray<HookCallbackMatcher<Name>> };
