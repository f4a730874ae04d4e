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
