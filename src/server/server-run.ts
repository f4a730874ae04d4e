/**
 * One run of a task inside `cairn serve`: the SDK's task session with the
 * server's hooks. Its log entries, partial updates and notices go to the
 * task's channel; its asks wait for a client, and the first answer wins.
 */
import type { CairnEvent, ResultEvent } from "../sdk/events.js";
import type { TaskOptions } from "../sdk/options.js";
import { runTaskSession, type TaskStart } from "../sdk/task-session.js";
import type { Session } from "../session/session.js";
import type { AskResponse, UiMessage } from "../task/contracts/messages.js";
import type { TaskLog, TaskLogEntry } from "../task/contracts/seams.js";
import { countLogEntries } from "./log-positions.js";
import type { TaskChannel } from "./task-channel.js";

interface OpenAsk {
  resolve(answer: AskResponse): void;
  cleanup(): void;
}

export interface ServerRunOptions {
  start: TaskStart;
  options: TaskOptions;
  /** The channel of a task (made when the run learns its id). */
  channelFor(taskId: string): TaskChannel;
  logPathOf(taskId: string): string;
}

export class ServerRun {
  /** The task's id once its log is open; rejects when the task could not start (the reason is for the client). */
  readonly started: Promise<string>;
  readonly result: Promise<ResultEvent>;
  readonly #openAsks = new Map<string, OpenAsk>();
  readonly #pending: string[] = [];
  /** Ids of the messages this run has logged: their final events come from the log. */
  readonly #logged = new Set<string>();
  /** Events said before the log was open (settings' warnings): sent once the channel is known. */
  readonly #early: CairnEvent[] = [];
  #channel: TaskChannel | undefined;
  #session: Session | undefined;
  #message: UiMessage | undefined;
  #abortRequested = false;
  #ended = false;

  constructor(private readonly run: ServerRunOptions) {
    let started: (taskId: string) => void = () => undefined;
    let failed: (error: unknown) => void = () => undefined;
    this.started = new Promise<string>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    this.started.catch(() => undefined);
    const options: TaskOptions = { ...run.options, onAsk: (ask, signal) => this.#waitForAnswer(ask.id, signal) };
    this.result = runTaskSession(run.start, options, {
      emit: (event) => this.#emit(event),
      pendingMessages: () => this.#pending.splice(0),
      onMessage: (message) => {
        this.#message = message;
      },
      wrapLog: (log, taskId) => this.#watch(log, taskId),
      onStarted: ({ taskId, session }) => {
        this.#session = session;
        started(taskId);
        if (this.#abortRequested) void session.task.abortTask();
      },
    }).then(
      (result) => {
        this.#finish(result);
        return result;
      },
      (error: unknown) => {
        failed(error);
        this.#finish({ v: 2, type: "error", message: error instanceof Error ? error.message : String(error) });
        throw error;
      },
    );
    this.result.catch(() => undefined);
  }

  get running(): boolean {
    return !this.#ended;
  }

  /** The asks waiting for a client, oldest first. */
  openAsks(): string[] {
    return [...this.#openAsks.keys()];
  }

  /** Answers ask `askId` for client `by`; false when no such ask waits (another client answered it first). */
  answer(askId: string, answer: AskResponse, by: string): boolean {
    const open = this.#openAsks.get(askId);
    if (open === undefined) return false;
    open.cleanup();
    open.resolve(answer);
    this.#channel?.say({ v: 2, type: "answered", askId, response: answer.response, ...(answer.text === undefined ? {} : { text: answer.text }), by });
    this.#channel?.stateChanged();
    return true;
  }

  /** A message for the model at its next tool boundary. */
  send(text: string): void {
    this.#pending.push(text);
  }

  abort(): void {
    this.#abortRequested = true;
    void this.#session?.task.abortTask();
  }

  #watch(log: TaskLog, taskId: string): TaskLog {
    const channel = this.run.channelFor(taskId);
    this.#channel = channel;
    channel.startRun(countLogEntries(this.run.logPathOf(taskId)));
    for (const event of this.#early.splice(0)) channel.say(event);
    channel.stateChanged();
    return {
      append: (entry: TaskLogEntry) => {
        log.append(entry);
        if (entry.kind === "ui") this.#logged.add(entry.message.id);
        channel.entryWritten(entry);
      },
      flush: () => log.flush(),
    };
  }

  #emit(event: CairnEvent): void {
    const channel = this.#channel;
    if (channel === undefined) {
      this.#early.push(event);
      return;
    }
    if (event.type === "result") return;
    if (event.partial) {
      if (this.#message?.id === event.id) channel.partialUpdate(this.#message, event);
      return;
    }
    // A final message the log has is sent from the log, with its number; others (notices, subagents' messages) as they are.
    if (!this.#logged.has(event.id)) channel.say(event);
  }

  #waitForAnswer(askId: string, signal: AbortSignal): Promise<AskResponse> {
    return new Promise<AskResponse>((resolve, reject) => {
      const onAbort = (): void => {
        cleanup();
        this.#channel?.stateChanged();
        reject(signal.reason instanceof Error ? signal.reason : new Error("The task was aborted."));
      };
      const cleanup = (): void => {
        signal.removeEventListener("abort", onAbort);
        this.#openAsks.delete(askId);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#openAsks.set(askId, { resolve, cleanup });
      this.#channel?.stateChanged();
    });
  }

  #finish(last: object): void {
    this.#ended = true;
    const channel = this.#channel;
    if (channel === undefined) return;
    channel.say(last);
    channel.endRun();
  }
}
