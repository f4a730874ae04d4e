/**
 * The hook events cairn fires, and the names other agents use for them, so a
 * hook written for Claude Code or Cline runs here unchanged.
 */
export const hookEvents = [
  "TaskStart",
  "TaskResume",
  "TaskCancel",
  "TaskComplete",
  "UserPromptSubmit",
  "PreToolUse",
  /** After a tool call that succeeded (Claude Code runs it on success only). */
  "PostToolUse",
  /** After a tool call that failed, with its `error`. */
  "PostToolUseFailure",
  "PreCompact",
  "Notification",
  "PermissionRequest",
  /** A subagent ended. */
  "SubagentStop",
] as const;

export type HookEvent = (typeof hookEvents)[number];

/**
 * Claude Code's names. `SessionStart` covers a new and a resumed task (its
 * matcher `startup` / `resume` picks one); `Stop` is the end of a completed
 * task; `SessionEnd` the end of a cancelled one.
 */
const aliases = {
  SessionStart: ["TaskStart", "TaskResume"],
  Stop: ["TaskComplete"],
  SessionEnd: ["TaskCancel"],
} as const satisfies Readonly<Record<string, readonly HookEvent[]>>;

/** Claude Code's names for cairn's events (`SessionStart`, `Stop`, `SessionEnd`). */
export type HookEventAlias = keyof typeof aliases;

/** The events each of Claude Code's names stands for. */
export type EventsOfAlias = { [Alias in HookEventAlias]: (typeof aliases)[Alias][number] };

export function isHookEvent(name: string): name is HookEvent {
  return (hookEvents as readonly string[]).includes(name);
}

/** The events a configured name stands for; empty when the name is unknown. */
export function eventsNamed(name: string): readonly HookEvent[] {
  if (isHookEvent(name)) return [name];
  return Object.hasOwn(aliases, name) ? aliases[name as HookEventAlias] : [];
}

/** Every name accepted in configuration, for error messages. */
export function acceptedEventNames(): string[] {
  return [...hookEvents, ...Object.keys(aliases)];
}
