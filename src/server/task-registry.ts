/**
 * The tasks of one `cairn serve`: the runs it holds, a channel per followed
 * task, and the task list (the store's history index with what runs here).
 */
import { join } from "node:path";
import type { UndoPoint } from "../checkpoints/undo.js";
import type { TaskOptions } from "../sdk/options.js";
import { isLockHeld, TaskLockedError } from "../store/lock.js";
import { taskTitle } from "../store/history-index.js";
import { TaskStore } from "../store/task-store.js";
import type { TaskSummary } from "../store/types.js";
import type { AskResponse, UiMessage } from "../task/contracts/messages.js";
import type { Mode } from "../task/contracts/tool-executor.js";
import { readLogAfter } from "./log-positions.js";
import { ServerRun } from "./server-run.js";
import { TaskChannel } from "./task-channel.js";
import { loggedMode, loggedModel } from "./task-mode.js";

export interface TaskRow extends TaskSummary {
  running: boolean;
  /** The ask waiting for a client, if any. */
  openAsk: string | null;
  /** Plan or act: a running task's, or the one a stopped task resumes in (`GET /api/tasks/:id`); null in the list for a task that does not run (its log is not read). */
  mode: Mode | null;
}

/** A request the client can correct (the status code says which). */
export class RequestError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export class TaskRegistry {
  readonly store: TaskStore;
  readonly #runs = new Map<string, ServerRun>();
  readonly #channels = new Map<string, TaskChannel>();
  /** The model chosen for a stopped task's next run (a running task's choice is in its log). */
  readonly #nextModels = new Map<string, string>();
  /** What each task's undos took back in this server, so the next one goes further back. */
  readonly #undone = new Map<string, UndoPoint[]>();

  /** `defaults`: the server's own task options (provider, model, data folder ...), under each request's. */
  constructor(readonly defaults: TaskOptions & { dataDir: string }) {
    this.store = new TaskStore({ dataDir: defaults.dataDir });
  }

  /** Starts a new task; resolves with its id once its log exists. */
  async start(prompt: string, options: TaskOptions): Promise<string> {
    return this.#launch({ kind: "new", task: prompt }, options);
  }

  /** Continues a stopped task (with a message, or where it stopped). */
  async resume(input: string, message?: string): Promise<string> {
    const taskId = await this.resolve(input);
    if (this.#runs.get(taskId)?.running === true) throw new RequestError(409, `task ${taskId} is running; send it a message or abort it first`);
    const loaded = await this.store.load(taskId);
    // The mode a client last switched it to (the log keeps it), else the one it would start in.
    const mode = loggedMode(loaded.uiMessages);
    const model = this.#nextModels.get(taskId) ?? loggedModel(loaded.uiMessages);
    this.#nextModels.delete(taskId);
    const options: TaskOptions = { cwd: loaded.meta.workspace, ...(mode === "plan" ? { permissionMode: "plan" as const } : {}), ...(model === undefined ? {} : { model }) };
    return this.#launch({ kind: "resume", taskId, ...(message === undefined ? {} : { message }) }, options, mode);
  }

  /** The run of a task this server runs now, if any. */
  runOf(taskId: string): ServerRun | undefined {
    const run = this.#runs.get(taskId);
    return run?.running === true ? run : undefined;
  }

  /** Plan or act for a running task's next request (a 409 says what to do when it does not run). */
  async setMode(taskId: string, mode: Mode, by: string): Promise<{ mode: Mode; changed: boolean }> {
    const run = this.runOf(taskId);
    if (run === undefined) {
      const { status } = await this.store.load(taskId);
      throw new RequestError(
        409,
        `task ${taskId} is not running (${status === "running" ? "interrupted" : status}); the mode is switched for a running task: resume it (POST /api/tasks/${taskId}/resume, or send it a message) and switch then`,
      );
    }
    const outcome = run.setMode(mode, by);
    if (outcome === "starting") throw new RequestError(409, `task ${taskId} is still starting; switch its mode again in a moment`);
    return { mode, changed: outcome === "switched" };
  }

  /** The model the task goes on with from its next run (as the local UI's `/model`: a running step keeps its model). */
  async chooseModel(taskId: string, model: string, by: string): Promise<{ model: string; text: string }> {
    const run = this.runOf(taskId);
    if (run !== undefined) {
      if (!run.chooseModel(model, by)) throw new RequestError(409, `task ${taskId} is still starting; choose its model again in a moment`);
      return { model, text: `${model}, from the task's next run (the run going on now keeps ${run.model ?? "its model"}; stop it and send a message to go on with ${model})` };
    }
    this.#nextModels.set(taskId, model);
    return { model, text: `${model}, from the task's next run (send it a message or resume it)` };
  }

  answer(taskId: string, askId: string, answer: AskResponse, by: string): boolean {
    return this.runOf(taskId)?.answer(askId, answer, by) ?? false;
  }

  /** Stops a running task and waits until its log is closed. */
  async abort(taskId: string): Promise<boolean> {
    const run = this.runOf(taskId);
    if (run === undefined) return false;
    run.abort();
    await run.result.catch(() => undefined);
    return true;
  }

  /** The undos of a task in this server (the list is kept: push to it). */
  undoPointsOf(taskId: string): UndoPoint[] {
    let points = this.#undone.get(taskId);
    if (points === undefined) {
      points = [];
      this.#undone.set(taskId, points);
    }
    return points;
  }

  /** A task's full id from an id or a unique prefix; 404 when there is none. */
  async resolve(input: string): Promise<string> {
    try {
      return await this.store.resolveTaskId(input);
    } catch (error) {
      throw new RequestError(404, error instanceof Error ? error.message : String(error));
    }
  }

  channel(taskId: string): TaskChannel {
    let channel = this.#channels.get(taskId);
    if (channel === undefined) {
      channel = new TaskChannel({ taskId, logPath: this.logPathOf(taskId), state: () => this.#stateOf(taskId) });
      this.#channels.set(taskId, channel);
    }
    return channel;
  }

  /** The log changed outside a run (a restore): every client reads what was added. */
  logChanged(taskId: string): void {
    this.#channels.get(taskId)?.resync();
  }

  /** The newest `limit` tasks, newest first: read from the end of the history index (src/store/newest-rows.ts). */
  async list(limit: number): Promise<TaskRow[]> {
    const { rows } = await this.store.listNewest({ limit });
    return Promise.all(rows.map((row) => this.#rowOf(row)));
  }

  /** One task: its row, its messages in their final state and the number of the last log entry they include. */
  async detail(taskId: string): Promise<{ task: TaskRow; messages: UiMessage[]; seq: number }> {
    // Counted before the messages are read: a client that follows from `seq` may see an entry twice (a final state again), never miss one.
    const { end: seq } = await readLogAfter(this.logPathOf(taskId), Number.POSITIVE_INFINITY);
    const loaded = await this.store.load(taskId);
    const { meta, status, tokensIn, tokensOut, cost, updatedAt } = loaded;
    const row: TaskSummary = { taskId, title: taskTitle(meta.task), createdAt: meta.createdAt, updatedAt, workspace: meta.workspace, tokensIn, tokensOut, cost, status };
    const task = await this.#rowOf(row);
    const run = this.runOf(taskId);
    const model = run?.model ?? this.#nextModels.get(taskId) ?? loggedModel(loaded.uiMessages) ?? meta.model;
    return { task: { ...task, mode: task.mode ?? loggedMode(loaded.uiMessages) ?? "act", ...(model === undefined ? {} : { model }) }, messages: loaded.uiMessages, seq };
  }

  logPathOf(taskId: string): string {
    return join(this.store.taskDir(taskId), "log.jsonl");
  }

  /** Stops every run (each can be resumed) and ends every client's stream. */
  async close(): Promise<void> {
    const running = [...this.#runs.values()].filter((run) => run.running);
    for (const run of running) run.abort();
    await Promise.all(running.map((run) => run.result.catch(() => undefined)));
    for (const channel of this.#channels.values()) channel.closeAll();
  }

  async #launch(start: ConstructorParameters<typeof ServerRun>[0]["start"], options: TaskOptions, logged?: Mode): Promise<string> {
    const run = new ServerRun({
      start,
      ...(logged === undefined ? {} : { mode: logged }),
      options: { ...this.defaults, ...options, unansweredAsks: "wait" },
      channelFor: (taskId) => {
        this.#runs.set(taskId, run);
        return this.channel(taskId);
      },
      logPathOf: (taskId) => this.logPathOf(taskId),
    });
    try {
      return await run.started;
    } catch (error) {
      // A task another process holds is a conflict; anything else (a setting, a key, a folder) the request can correct.
      throw new RequestError(error instanceof TaskLockedError ? 409 : 400, error instanceof Error ? error.message : String(error));
    }
  }

  #stateOf(taskId: string): object {
    const run = this.runOf(taskId);
    const openAsks = run?.openAsks() ?? [];
    return { v: 2, type: "state", taskId, running: run !== undefined, openAsk: openAsks[0] ?? null, openAsks, ...(run === undefined ? {} : { mode: run.mode }) };
  }

  async #rowOf(row: TaskSummary): Promise<TaskRow> {
    const run = this.runOf(row.taskId);
    const openAsk = run?.openAsks()[0] ?? null;
    if (run !== undefined) return { ...row, status: "running", running: true, openAsk, mode: run.mode };
    // A log that says running with nobody holding its lock: the process that ran it died (this server, killed, or a terminal).
    const died = row.status === "running" && !(await isLockHeld(join(this.store.taskDir(row.taskId), "lock")));
    return { ...row, ...(died ? { status: "aborted" as const } : {}), running: false, openAsk, mode: null };
  }
}
