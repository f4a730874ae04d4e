/**
 * Runs one in-process hook callback as the runner runs a command: its answer
 * becomes the result of a command that printed it as JSON and exited 0, read
 * by `readHookOutput`, so every decision behaves as a command's would. A
 * callback that throws, answers something that is not an object, or
 * outlives its timeout is a failed guard: it blocks what it guards, as a
 * command that exited 2 would (fails closed), and is reported.
 */
import type { HookCallback, HookCallbackInput } from "./callback-types.js";
import type { HookEvent } from "./events.js";
import type { HookDialect } from "./hook-definition.js";
import { readHookOutput } from "./hook-output.js";
import type { HookVerdict } from "./hook-output.js";
import type { HookProcessResult } from "./spawn-hook.js";

/**
 * Events where a failed callback blocks: the action it guards does not go on
 * (PreToolUse: the call; PermissionRequest: the approval is denied;
 * UserPromptSubmit: the prompt). Elsewhere a failure is reported and blocks
 * nothing: a Stop callback that always throws must not keep a task from ever ending.
 */
export const callbackFailureBlocks: ReadonlySet<HookEvent> = new Set(["PreToolUse", "PermissionRequest", "UserPromptSubmit"]);

export interface CallbackRun {
  callback: HookCallback;
  /** The JSON a command would be sent on stdin. */
  input: string;
  event: HookEvent;
  dialect: HookDialect;
  label: string;
  timeoutMs: number;
  signal: AbortSignal;
}

type Settled = { kind: "answered"; value: unknown } | { kind: "threw"; error: unknown } | { kind: "timed out" } | { kind: "cancelled" };

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message === "" ? error.name : error.message;
  return String(error);
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  return value === null ? "null" : `a ${typeof value}`;
}

/** The answer as a command would have printed it, or why it cannot be one. */
function printed(value: unknown): { stdout: string } | { failure: string } {
  if (value === undefined || value === null) return { stdout: "" };
  if (typeof value !== "object" || Array.isArray(value)) return { failure: `answered ${describeValue(value)}, not an object` };
  try {
    return { stdout: JSON.stringify(value) };
  } catch (error) {
    return { failure: `answered an object that is not JSON (${errorText(error)})` };
  }
}

async function settle(run: CallbackRun, controller: AbortController): Promise<Settled> {
  // Parsed from the very text a command would read: the callback gets its own copy, and only JSON.
  const input = JSON.parse(run.input) as HookCallbackInput;
  const toolUseId = "tool_use_id" in input && typeof input.tool_use_id === "string" ? input.tool_use_id : undefined;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const answered = Promise.resolve()
    .then(() => run.callback(input, toolUseId, { signal: controller.signal }))
    .then(
      (value): Settled => ({ kind: "answered", value }),
      (error: unknown): Settled => ({ kind: "threw", error }),
    );
  const timedOut = new Promise<Settled>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "timed out" }), run.timeoutMs);
  });
  const cancelled = new Promise<Settled>((resolve) => {
    onAbort = () => resolve({ kind: "cancelled" });
    run.signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([answered, timedOut, cancelled]);
  } finally {
    clearTimeout(timer);
    if (onAbort) run.signal.removeEventListener("abort", onAbort);
    // The callback is told to stop whatever it still does (timed out, or the task was cancelled).
    if (!controller.signal.aborted) controller.abort();
  }
}

export async function runHookCallback(run: CallbackRun): Promise<{ result: HookProcessResult; verdict: HookVerdict }> {
  const started = Date.now();
  const base = { stdout: "", stderr: "", timedOut: false, cancelled: false, truncated: false };
  if (run.signal.aborted) {
    const result = { ...base, exitCode: null, cancelled: true, durationMs: 0 };
    return { result, verdict: readHookOutput(result, run.dialect) };
  }
  const controller = new AbortController();
  const settled = await settle(run, controller);
  const durationMs = Date.now() - started;
  if (settled.kind === "cancelled") {
    const result = { ...base, exitCode: null, cancelled: true, durationMs };
    return { result, verdict: readHookOutput(result, run.dialect) };
  }
  let failure: string;
  if (settled.kind === "answered") {
    const answer = printed(settled.value);
    if ("stdout" in answer) {
      const result = { ...base, exitCode: 0, stdout: answer.stdout, durationMs };
      return { result, verdict: readHookOutput(result, run.dialect) };
    }
    failure = answer.failure;
  } else if (settled.kind === "threw") {
    failure = `threw: ${errorText(settled.error)}`;
  } else {
    failure = `timed out after ${run.timeoutMs / 1000} s`;
  }
  // As a command that exited 2 with the failure on stderr.
  const result = { ...base, exitCode: 2, stderr: failure, timedOut: settled.kind === "timed out", durationMs };
  if (!callbackFailureBlocks.has(run.event)) return { result, verdict: { problem: failure } };
  return { result, verdict: { decision: "block", reason: `the hook ${run.label} ${failure}`, problem: `${failure}; blocked (a failed ${run.event} callback fails closed)` } };
}
