/**
 * What the terminal UI asks of the rest of cairn when the user presses a key.
 * The CLI implements it around the Task; the UI never reaches the Task directly.
 */
import type { SlashSession } from "./slash-commands.js";

export type TuiMode = "plan" | "act";

export interface TuiStatus {
  model: string;
  mode: TuiMode;
  /** Auto mode: a model judges what would be asked (shown as `ACT · AUTO`). */
  autoMode?: boolean;
  /** Tokens in the current context (last request's input plus output). */
  tokensUsed: number;
  contextWindow: number;
  /** Cost of the task so far in US dollars. */
  cost: number;
  /** Tokens sent and received by the task so far (counted as the answers stream). */
  tokensIn?: number;
  tokensOut?: number;
  /** A task step is running (Esc and Ctrl+C then abort it). */
  busy: boolean;
  /** What is left of the task's budgets (#14), e.g. "budget left: 12 requests, $0.40"; absent without limits. */
  budgetLeft?: string;
  /** The first line of the user's own status line command (Claude Code's `statusLine`), once it answered. */
  userLine?: string;
  /** The main keys, at the end of the status line (default: `Tab mode · Esc stop · ^C^C quit`). */
  keys?: string;
  /** Something the controller needs the user to see now (e.g. a confirmation it waits for); shown in place of the keys. */
  notice?: string;
}

export interface TuiController {
  /** Calls the user back when the UI needs them (notifications.ts); told of every key and of the terminal's focus. */
  attention?: { focus(focused: boolean): void; settle(): void } | undefined;
  /** Enter with no ask open: a new task, or feedback after completion. */
  submit(text: string): void;
  /** Esc or the first Ctrl+C: aborts the current step; the task stays resumable. */
  abort(): void;
  /** The second Ctrl+C in a row. The UI unmounts itself after calling it. */
  exit(): void;
  /**
   * Ctrl+D on an empty input line (a shell's end of input): leaves without stopping anything.
   * Only a UI attached to a task that runs elsewhere has it (`cairn attach`); the UI unmounts itself after calling it.
   */
  detach?(): void;
  /** Tab or Ctrl+T: switches plan/act and returns the new mode. */
  toggleMode(): TuiMode;
  /** Read on every render and once a second. Must be cheap. */
  status(): TuiStatus;
  /** What slash commands may do; without it they say they are not available here. */
  slashSession?(): SlashSession;
  /**
   * Enter while a step runs: the message waits and reaches the model at the next
   * tool boundary (its very next request). Without it, the UI submits at once.
   */
  enqueue?(text: string): void;
  /** Messages waiting for the next tool boundary, oldest first. */
  queued?(): readonly string[];
  /** Takes the newest waiting message back (to edit or drop it). */
  withdrawQueued?(): string | undefined;
  /** Paths a partial `@mention` may complete to (workspace guard and ignore file applied). */
  completeMention?(partial: string): Promise<string[]>;
}

/** Earlier inputs for Up/Down, kept per workspace across sessions. */
export interface InputHistoryStore {
  entries(): readonly string[];
  add(text: string): void;
}
