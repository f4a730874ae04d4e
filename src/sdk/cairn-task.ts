/**
 * A task run from code: `startTask(prompt, options)` or `resumeTask(id,
 * options)` give a `CairnTask`, an async iterable of the task's events (the
 * objects of `cairn run --json`, result last), with the task's controls:
 * answer an ask, send a message while it works, abort.
 */
import type { Session } from "../session/session.js";
import { EventQueue } from "./event-queue.js";
import { TaskEndedError } from "./errors.js";
import type { CairnEvent, ResultEvent } from "./events.js";
import type { AskAnswer, TaskOptions } from "./options.js";
import type { SdkHost } from "./sdk-host.js";
import { runTaskSession, type TaskStart } from "./task-session.js";

export interface ResumeOptions extends TaskOptions {
  /** A message for the model as the task goes on (none: it goes on where it stopped). */
  prompt?: string;
}

export class CairnTask implements AsyncIterable<CairnEvent> {
  /** The whole run's last event: how it ended and the task's totals. Rejects when the task could not start (a typed error). */
  readonly result: Promise<ResultEvent>;
  readonly #events = new EventQueue<CairnEvent>(() => this.#leftEarly());
  readonly #pendingMessages: string[] = [];
  readonly #taskId: Promise<string>;
  #session: Session | undefined;
  #host: SdkHost | undefined;
  #ended = false;
  #abortRequested = false;

  constructor(start: TaskStart, options: TaskOptions) {
    let resolveId: (id: string) => void = () => undefined;
    let rejectId: (error: Error) => void = () => undefined;
    this.#taskId = new Promise<string>((resolve, reject) => {
      resolveId = resolve;
      rejectId = reject;
    });
    // Nobody may await the id; its failure is the result's too.
    this.#taskId.catch(() => undefined);
    this.result = this.#run(start, options, resolveId).then(
      (result) => {
        this.#events.push(result);
        this.#events.end();
        return result;
      },
      (error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error));
        rejectId(failure);
        this.#events.fail(failure);
        throw failure;
      },
    );
    // Iterating is enough to see a failure: an unobserved result must not crash the program.
    this.result.catch(() => undefined);
  }

  [Symbol.asyncIterator](): AsyncIterator<CairnEvent> {
    return this.#events[Symbol.asyncIterator]();
  }

  /** The task's id (for `resumeTask`, `readTask`, `cairn show`), once its log exists. */
  taskId(): Promise<string> {
    return this.#taskId;
  }

  /** Answers the open ask `askId` (an ask event); false when no such ask waits. */
  answer(askId: string, answer: AskAnswer): boolean {
    return this.#host?.answer(askId, answer) ?? false;
  }

  /** A message for the model while the task works: it reads it at the next tool boundary. */
  send(text: string): void {
    if (this.#ended) throw new TaskEndedError(this.#session?.taskId ?? "(not started)");
    this.#pendingMessages.push(text);
  }

  /** Stops the task (resumable later); the result says `aborted`. */
  abort(): void {
    this.#abortRequested = true;
    void this.#session?.task.abortTask();
  }

  /**
   * The loop over the events was left before the task ended (`break`, a `return` or a throw in its
   * body, or the iterator's `return()`): nobody follows the task any more, so it is aborted as by
   * `abort()`, and the loop is left once the task has stopped (its commands ended, its log closed)
   * and `result` has settled.
   */
  async #leftEarly(): Promise<void> {
    if (!this.#ended) this.abort();
    await this.result.catch(() => undefined);
  }

  async #run(start: TaskStart, options: TaskOptions, resolveId: (id: string) => void): Promise<ResultEvent> {
    const onAbort = (): void => this.abort();
    try {
      return await runTaskSession(start, options, {
        emit: (event) => this.#events.push(event),
        pendingMessages: () => this.#pendingMessages.splice(0),
        onStarted: ({ taskId, host, session }) => {
          this.#host = host;
          this.#session = session;
          resolveId(taskId);
          options.signal?.addEventListener("abort", onAbort, { once: true });
          if (options.signal?.aborted === true || this.#abortRequested) onAbort();
        },
      });
    } finally {
      this.#ended = true;
      options.signal?.removeEventListener("abort", onAbort);
    }
  }
}

/** Starts a task in `options.cwd` (default: the current folder). */
export function startTask(prompt: string, options: TaskOptions = {}): CairnTask {
  return new CairnTask({ kind: "new", task: prompt }, options);
}

/** Continues a task by id (or a unique prefix of it), with a message or where it stopped. */
export function resumeTask(taskId: string, options: ResumeOptions = {}): CairnTask {
  const { prompt, ...rest } = options;
  return new CairnTask({ kind: "resume", taskId, ...(prompt === undefined ? {} : { message: prompt }) }, rest);
}
