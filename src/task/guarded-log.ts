import type { TaskLog, TaskLogEntry } from "./contracts/seams.js";

/**
 * The task log must never bring the task down: a failed write (full disk, a
 * log closed at shutdown) is reported once and the task goes on in memory.
 */
export class GuardedLog implements TaskLog {
  private reported = false;

  constructor(
    private readonly log: TaskLog,
    private readonly onError: (message: string) => void,
  ) {}

  append(entry: TaskLogEntry): void {
    try {
      this.log.append(entry);
    } catch (error) {
      this.report(error);
    }
  }

  async flush(): Promise<void> {
    try {
      await this.log.flush();
    } catch (error) {
      this.report(error);
    }
  }

  private report(error: unknown): void {
    if (this.reported) return;
    this.reported = true;
    const detail = error instanceof Error ? error.message : String(error);
    this.onError(`The task log could not be written (${detail}). The task goes on, but what follows may be missing from its history.`);
  }
}
