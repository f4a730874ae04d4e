import type { Mode } from "./contracts/tool-executor.js";
import type { MessageState } from "./message-state.js";
import type { MistakeTracker } from "./mistakes.js";
import type { Round } from "./round.js";
import type { StateLock } from "./state-lock.js";
import type { TaskState } from "./task-state.js";
import { toolEndMeta } from "./tool-runner.js";
import type { ExecutedToolRun, ToolRun } from "./tool-runner.js";

/** The task state a tool's run may change. */
export interface ToolRunTarget {
  readonly stateLock: StateLock;
  readonly mistakes: MistakeTracker;
  readonly taskState: TaskState;
  setMode(mode: Mode): void;
}

/**
 * Applies what a tool's run returned, to the round and the task, inside the
 * state lock (SPEC T8): the mistake count (T9), the round's result and the call's state,
 * completion and a mode switch. The only place a tool changes task state.
 */
export async function applyToolRun(target: ToolRunTarget, round: Round, run: ToolRun): Promise<void> {
  await target.stateLock.withStateLock(() => {
    if (run.status === "success") target.mistakes.reset();
    if (run.status === "error" || run.status === "mistake") target.mistakes.record("tool_failed");
    if (run.status !== "skipped" && run.repetition === "limit") target.mistakes.markLimitReached();
    round.applyToolRun(run);
    if (run.status === "skipped") return; // a skipped call changes nothing but the round
    if (run.completed) target.taskState.completed = true;
    if (run.switchMode) target.setMode(run.switchMode);
  });
}

/** The tool's card ends with its outcome; a call that showed no card (an unknown tool, a missing parameter) gets one with its failure. */
export function showToolEnding(messages: Pick<MessageState, "amend" | "say">, run: ExecutedToolRun): void {
  const ending = toolEndMeta(run);
  if (ending === undefined || messages.amend(run.block.id, ending) || ending.status === undefined) return;
  messages.say("tool", run.block.name, { meta: { tool: run.block.name, status: ending.status, error: ending.error ?? "" } });
}
