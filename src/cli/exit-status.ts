import type { TaskResult } from "../task/task.js";

/** The exit status of a task's outcome: 0 completed, 1 failed, 3 stopped by a budget (#14), 130 interrupted. */
export function exitStatusFor(result: TaskResult): number {
  switch (result.status) {
    case "completed":
      return 0;
    case "aborted":
      return 130;
    case "budget":
      return 3;
    default:
      return 1;
  }
}
