/** Thrown on every recursive path once `taskState.abort` is set (SPEC T5, P8). */
export class TaskAbortedError extends Error {
  constructor() {
    super("task aborted");
    this.name = "TaskAbortedError";
  }
}

/** The task cannot go on (mistake limit in yes-mode, provider failure after retries). */
export class TaskFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TaskFailedError";
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof TaskAbortedError || (error instanceof Error && error.name === "AbortError");
}

/** A budget (#14) was reached: the task stops cleanly and stays resumable. */
export class BudgetExceededError extends Error {}

/** How a task that threw ends: its result, what the user is told, and whether running work must be stopped. */
export interface TaskEnding {
  result: { status: "failed" | "budget" | "aborted"; error?: string };
  tell: { type: "error" | "budget" | "info"; text: string };
  abort: boolean;
}

/** A fatal error wins over whatever noticed it; an abort is resumable; anything else fails the task. */
export function endingOf(error: unknown, fatalError: Error | undefined, aborted: boolean): TaskEnding {
  if (fatalError) return { result: { status: "failed", error: fatalError.message }, tell: { type: "error", text: fatalError.message }, abort: true };
  if (error instanceof BudgetExceededError) return { result: { status: "budget", error: error.message }, tell: { type: "budget", text: error.message }, abort: false };
  if (error instanceof TaskAbortedError || aborted) {
    return { result: { status: "aborted" }, tell: { type: "info", text: "Task interrupted. Nothing done so far is lost: it can be resumed." }, abort: true };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { result: { status: "failed", error: message }, tell: { type: "error", text: message }, abort: false };
}
