import type { AskMessage, AskResponse, UiMessage } from "./messages.js";

/**
 * The user side of `ask` and `say` (DESIGN: Host seam). The TUI, the headless
 * printer and tests are hosts.
 */
export interface Host {
  /** Every new message and every update of a partial one (same id). */
  onMessage(message: UiMessage): void;
  /**
   * Answers a complete ask. The promise may stay pending until the user answers;
   * `signal` aborts when the task is aborted (the host should then stop waiting).
   */
  answerAsk(message: AskMessage, signal: AbortSignal): Promise<AskResponse>;
}
