import { createHash } from "node:crypto";
import type { HookCallback } from "./callback-types.js";
import type { HookEvent } from "./events.js";

export type HookScope = "user" | "project";

/**
 * What a hook expects to be told. Hooks in Claude Code's format (its settings
 * files, or its JSON form in cairn's config) get Claude Code's tool names and
 * input shapes; cairn's own forms (executables in a hooks folder, the old
 * `{"TaskStart": "cmd"}` form) get cairn's tool names and parameters; Cline's
 * (executables in `.clinerules/hooks/`) get cairn's too, with Cline's fields
 * beside them (src/hooks/cline-input.ts), and are read as Cline reads them.
 */
export type HookDialect = "claude-code" | "cairn" | "cline";

/** Where a hook was configured, for `cairn hooks list` and the messages. */
export type HookOrigin =
  /** cairn's settings, Claude Code's form or the old `{"TaskStart": "cmd"}` one. */
  | { kind: "settings"; file: string }
  /** `.claude/settings.json` / `.claude/settings.local.json`, read unchanged. */
  | { kind: "claude-settings"; file: string }
  /** An executable named after the event in a hooks folder. */
  | { kind: "executable"; file: string }
  /** An enabled plugin's `hooks/hooks.json` (or plugin.json's inline hooks), trusted when the plugin was installed. */
  | { kind: "plugin"; file: string; plugin: string }
  /** A function given in code by the program that embeds cairn (the SDK's `hooks` option); `file` says so. */
  | { kind: "callback"; file: string };

export interface HookDefinition {
  event: HookEvent;
  /** The name it was configured under (`SessionStart` for a TaskStart hook), sent as `hook_event_name`. */
  configuredAs: string;
  /** Claude Code's matcher (tool names for tool events); absent matches all. */
  matcher?: string;
  /** The shell command; for a callback hook, only its name (`callback PreToolUse[Bash]`), never run. */
  command: string;
  /**
   * Runs in-process instead of the command (the SDK's callbacks, src/hooks/callback-hooks.ts):
   * told the input a command reads on stdin, parsed; its answer is read as a command's JSON output.
   */
  callback?: HookCallback;
  timeoutMs: number;
  scope: HookScope;
  origin: HookOrigin;
  dialect: HookDialect;
  /**
   * Changes when the hook changes, or a script file in the workspace that its
   * command runs: a changed project hook needs trust again.
   */
  fingerprint: string;
  /** The workspace files its command runs (relative paths), named when it is held back. */
  scripts?: readonly string[];
  /** Variables for this hook's process only (a plugin's `CLAUDE_PLUGIN_ROOT`). */
  env?: Readonly<Record<string, string>>;
  /** Folders it may read in the sandbox, even in cairn's data folder (a plugin's own folder). */
  visible?: readonly string[];
}

export const defaultHookTimeoutMs = 60_000;

export function fingerprintOf(parts: readonly string[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return hash.digest("hex");
}

/** How the hook is named to the user: its command, the executable's path, or a callback's name. */
export function hookLabel(definition: HookDefinition): string {
  return definition.origin.kind === "executable" ? definition.origin.file : definition.command;
}
