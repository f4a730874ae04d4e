/**
 * One run of a task inside `cairn serve`: the SDK's task session with the
 * server's hooks. Its log entries, partial updates and notices go to the
 * task's channel; its asks wait for a client, and the first answer wins.
 */
import type { CairnEvent, ResultEvent } from "../sdk/events.js";
import type { TaskOptions } from "../sdk/options.js";
import { runTaskSession, type TaskStart } from "../sdk/task-session.js";
import type { McpPromptInfo } from "../mcp/user-references.js";
import type { Session } from "../session/session.js";
import type { AskResponse, UiMessage } from "../task/contracts/messages.js";
import type { TaskLog, TaskLogEntry } from "../task/contracts/seams.js";
import type { Mode } from "../task/contracts/tool-executor.js";
import { countLogEntries } from "./log-positions.js";
import { modelSwitchText, modeSwitchText } from "./task-mode.js";
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
  /** The mode a resumed task's log last switched to (undefined: the one its settings give). */
  mode?: Mode;
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
  /** Queues a message in the session, which expands it at once (undefined until the session exists). */
  #send: ((text: string) => void) | undefined;
  #message: UiMessage | undefined;
  #abortRequested = false;
  #ended = false;
  /** The mode clients were last told of (the model may switch it too: plan_mode_respond). */
  #mode: Mode;

  constructor(private readonly run: ServerRunOptions) {
    let started: (taskId: string) => void = () => undefined;
    let failed: (error: unknown) => void = () => undefined;
    this.started = new Promise<string>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    this.started.catch(() => undefined);
    // Until the session exists: what its settings will most likely give (a folder's config may still say plan).
    this.#mode = run.mode ?? (run.options.permissionMode === "plan" ? "plan" : "act");
    const options: TaskOptions = { ...run.options, onAsk: (ask, signal) => this.#waitForAnswer(ask.id, signal) };
    this.result = runTaskSession(run.start, options, {
      emit: (event) => this.#emit(event),
      pendingMessages: () => {
        // A tool boundary: a switch the model made (an approved plan goes to act) is told, and logged, before the next request.
        if (this.#session !== undefined && this.#session.task.mode !== this.#mode) this.#modeChanged(this.#session.task.mode, "the task");
        return this.#pending.splice(0);
      },
      onMessage: (message) => {
        this.#message = message;
      },
      wrapLog: (log, taskId) => this.#watch(log, taskId),
      onStarted: ({ taskId, session, send }) => {
        this.#session = session;
        this.#send = send;
        if (run.mode !== undefined) session.task.mode = run.mode;
        const told = this.#mode;
        this.#mode = session.task.mode;
        if (told !== this.#mode) this.#channel?.stateChanged();
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

  /** Plan or act, as the task's next request will use it. */
  get mode(): Mode {
    return this.#session?.task.mode ?? this.#mode;
  }

  /**
   * Switches the mode as the local UI's Tab does (the next request has the mode's system prompt and tools); every client
   * is told, and the log keeps it. `starting`: the task has no session yet.
   */
  setMode(mode: Mode, by: string): "switched" | "unchanged" | "starting" {
    const session = this.#session;
    if (session === undefined) return "starting";
    if (session.task.mode === mode && this.#mode === mode) return "unchanged";
    session.task.mode = mode;
    this.#modeChanged(mode, by);
    return "switched";
  }

  #modeChanged(mode: Mode, by: string): void {
    this.#mode = mode;
    this.#session?.task.say("info", modeSwitchText(mode, by), { meta: { mode, by } });
    this.#channel?.stateChanged();
  }

  /** The model the run uses (undefined before its session exists). */
  get model(): string | undefined {
    return this.#session?.provider.model.id;
  }

  /** A client chose the model of the task's next run: every client is told, and the log keeps it. False while the task starts. */
  chooseModel(model: string, by: string): boolean {
    const session = this.#session;
    if (session === undefined) return false;
    session.task.say("info", modelSwitchText(model, by, this.model), { meta: { model, by } });
    return true;
  }

  /** The prompts of the task's MCP servers connected now (none before its session exists). */
  mcpPrompts(): McpPromptInfo[] {
    return this.#session?.mcpPrompts() ?? [];
  }

  /** A message for the model at its next tool boundary. */
  send(text: string): void {
    if (this.#send === undefined) this.#pending.push(text);
    else this.#send(text);
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
