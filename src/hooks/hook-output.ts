/**
 * What one hook said, read from its exit code and output. Claude Code's
 * fields are read at the top level and inside `hookSpecificOutput`; Cline's
 * (`cancel`, `contextModification`, `errorMessage`) too.
 */
import type { HookDialect } from "./hook-definition.js";
import type { HookProcessResult } from "./spawn-hook.js";

export type HookDecision = "block" | "allow" | "ask";

export interface HookVerdict {
  decision?: HookDecision;
  reason?: string;
  additionalContext?: string;
  updatedInput?: Record<string, unknown>;
  /** `continue: false`: the task stops, with this reason. */
  stopReason?: string;
  /** A line for the user (Claude Code's `systemMessage`). */
  systemMessage?: string;
  /** Something wrong with the hook itself (failed, timed out, unreadable output). */
  problem?: string;
  /**
   * The hook never ran (missing script, not executable, bad interpreter, no
   * shell, the sandbox could not start it, or held back): a guard that cannot
   * run blocks what it guards (PreToolUse, PermissionRequest).
   */
  notStarted?: true;
  /** Plain output that was not JSON (shown; context for the events that take it). */
  plainOutput?: string;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function decisionFrom(value: unknown): HookDecision | undefined {
  switch (value) {
    case "block":
    case "deny":
      return "block";
    case "allow":
    case "approve":
      return "allow";
    case "ask":
      return "ask";
    default:
      return undefined;
  }
}

function readJson(output: Json): HookVerdict {
  const verdict: HookVerdict = {};
  const specific = isObject(output["hookSpecificOutput"]) ? output["hookSpecificOutput"] : {};
  // PermissionRequest's answer in Claude Code: `decision: {behavior, message, updatedInput}`.
  const permission = isObject(specific["decision"]) ? specific["decision"] : undefined;
  const decision =
    decisionFrom(specific["permissionDecision"]) ?? decisionFrom(permission?.["behavior"]) ?? decisionFrom(specific["decision"]) ?? decisionFrom(output["decision"]) ?? (output["cancel"] === true ? "block" : undefined);
  if (decision) verdict.decision = decision;
  const reason = text(specific["permissionDecisionReason"]) ?? text(permission?.["message"]) ?? text(output["reason"]) ?? text(output["errorMessage"]);
  if (reason !== undefined) verdict.reason = reason;
  const context = text(specific["additionalContext"]) ?? text(output["additionalContext"]) ?? text(output["contextModification"]);
  if (context !== undefined) verdict.additionalContext = context;
  const updated = specific["updatedInput"] ?? permission?.["updatedInput"] ?? output["updatedInput"];
  if (isObject(updated)) verdict.updatedInput = updated;
  if (output["continue"] === false) verdict.stopReason = text(output["stopReason"]) ?? "a hook stopped the task";
  const message = text(output["systemMessage"]);
  if (message !== undefined) verdict.systemMessage = message;
  return verdict;
}

/**
 * The shell's own exit codes for a program it could not run: 126 (found but
 * not executable, or a bad interpreter) and 127 (not found).
 */
const shellCouldNotRun = new Set([126, 127]);

/**
 * Exit 0 reads the JSON on stdout (plain text is kept as plain output);
 * exit 2 blocks with stderr as the reason (Claude Code's convention); any
 * other failure is reported and blocks nothing. A hook that could not start
 * is marked so (`notStarted`); what that means depends on the event. A hook
 * written for Cline is read as Cline reads it (`readClineOutput`).
 */
export function readHookOutput(result: HookProcessResult, dialect: HookDialect = "cairn"): HookVerdict {
  if (result.spawnError !== undefined) return { problem: `could not start: ${result.spawnError}`, notStarted: true };
  if (result.cancelled) return { problem: "cancelled" };
  const stderr = result.stderr.trim();
  if (result.exitCode !== null && shellCouldNotRun.has(result.exitCode)) {
    return { problem: `could not start (exit ${result.exitCode})${stderr === "" ? "" : `: ${stderr.slice(0, 500)}`}`, notStarted: true };
  }
  if (dialect === "cline") return readClineOutput(result);
  if (result.timedOut) return { problem: `timed out after ${Math.round(result.durationMs / 1000)} s` };
  if (result.exitCode === 2) return { decision: "block", reason: stderr === "" ? "blocked by a hook (exit code 2)" : stderr };
  if (result.exitCode !== 0) {
    return { problem: `exited with ${result.exitCode ?? "a signal"}${stderr === "" ? "" : `: ${stderr.slice(0, 500)}`}` };
  }
  const stdout = result.stdout.trim();
  if (stdout === "") return {};
  if (stdout.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(stdout);
      if (isObject(parsed)) return readJson(parsed);
    } catch {
      // reported below
    }
    return { problem: "printed output that is not valid JSON; it was ignored", plainOutput: stdout.slice(0, 500) };
  }
  return { plainOutput: stdout };
}

/** The last JSON object on stdout (a Cline hook may log lines before it, and jq prints it over several lines). */
function finalJsonObject(stdout: string): { found: Json } | { broken: true } | undefined {
  const starts = [...stdout.matchAll(/(^|\n)\s*\{/g)].map((match) => match.index + match[1]!.length).reverse();
  for (const start of starts) {
    try {
      const parsed: unknown = JSON.parse(stdout.slice(start));
      if (isObject(parsed)) return { found: parsed };
    } catch {
      // an earlier opening brace may start it
    }
  }
  return starts.length === 0 ? undefined : { broken: true };
}

/**
 * Cline's rules: the final JSON object on stdout is the answer (`cancel`,
 * `contextModification`, `errorMessage`); no JSON lets the action proceed;
 * a non-zero exit, JSON that cannot be read and a timeout block it.
 */
function readClineOutput(result: HookProcessResult): HookVerdict {
  const stdout = result.stdout.trim();
  const answer = finalJsonObject(stdout);
  const verdict = answer !== undefined && "found" in answer ? readJson(answer.found) : {};
  if (result.timedOut) return { decision: "block", reason: `the hook timed out after ${Math.round(result.durationMs / 1000)} s`, problem: "timed out" };
  if (result.exitCode !== 0) {
    const stderr = result.stderr.trim();
    const reason = verdict.reason ?? (stderr === "" ? `the hook exited with ${result.exitCode ?? "a signal"}` : stderr.slice(0, 500));
    return { ...verdict, decision: "block", reason };
  }
  if (answer !== undefined && "broken" in answer) return { decision: "block", reason: "the hook printed JSON that cannot be read", problem: "printed output that is not valid JSON" };
  return verdict;
}
