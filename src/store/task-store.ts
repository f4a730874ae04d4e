import { openSync, closeSync } from "node:fs";
import { mkdir, readFile, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-file.js";
import { taskTitle } from "./history-index.js";
import { appendJournal } from "./history-journal.js";
import { acquireTaskLock } from "./lock.js";
import { readLog } from "./log-reader.js";
import { TaskLogWriter, type TaskProgress } from "./log-writer.js";
import { listNewestRows, listTaskRows, type TaskListSource } from "./task-list.js";
import type { NewestQuery, NewestRows } from "./newest-rows.js";
import { assertValidTaskId, createTaskId } from "./task-id.js";
import type { ConversationPosition, LoadedTask, TaskMeta, TaskSummary } from "./types.js";

/** Asked for a task id that has no folder (or no readable meta.json). */
export class TaskNotFoundError extends Error {
  constructor(taskId: string, dataDir: string) {
    super(`no task "${taskId}" in ${join(dataDir, "tasks")}; run \`cairn history\` to see task ids`);
    this.name = "TaskNotFoundError";
  }
}

/** The meta.json files of tasks this process created that are still being written (`create`), by path. */
const metasOnTheirWay = new Map<string, Promise<void>>();

/**
 * Tasks on disk: `<dataDir>/tasks/<id>/{meta.json, log.jsonl, lock}` and the
 * listing index `<dataDir>/history.jsonl` (an append-only journal of task rows,
 * history-journal.ts).
 */
export class TaskStore {
  readonly dataDir: string;

  constructor(options: { dataDir: string }) {
    this.dataDir = options.dataDir;
  }

  get tasksDir(): string {
    return join(this.dataDir, "tasks");
  }

  /** The history index: one appended row per change of a task's status or totals. */
  get indexPath(): string {
    return join(this.dataDir, "history.jsonl");
  }

  taskDir(taskId: string): string {
    assertValidTaskId(taskId);
    return join(this.tasksDir, taskId);
  }

  /** The task's append-only log. */
  logPath(taskId: string): string {
    return join(this.taskDir(taskId), "log.jsonl");
  }

  /** Starts a new task's folder and log; the returned writer holds the task's lock. */
  async create(meta: { taskId?: string; task: string; workspace: string; createdAt?: number; parent?: TaskMeta["parent"]; forkedFrom?: TaskMeta["forkedFrom"]; model?: string }): Promise<TaskLogWriter> {
    const createdAt = meta.createdAt ?? Date.now();
    const full: TaskMeta = {
      taskId: meta.taskId ?? createTaskId(createdAt),
      task: meta.task,
      workspace: meta.workspace,
      createdAt,
      ...(meta.parent ? { parent: meta.parent } : {}),
      ...(meta.forkedFrom ? { forkedFrom: meta.forkedFrom } : {}),
      ...(meta.model === undefined ? {} : { model: meta.model }),
    };
    const dir = this.taskDir(full.taskId);
    await mkdir(dir, { recursive: true });
    const lock = await acquireTaskLock({ path: join(dir, "lock"), taskId: full.taskId });
    try {
      if (
        await stat(join(dir, "meta.json")).then(
          () => true,
          () => false,
        )
      ) {
        throw new Error(`task ${full.taskId} already exists; resume it (cairn resume ${full.taskId}) or start a new task`);
      }
      const progress: TaskProgress = { status: "running", tokensIn: 0, tokensOut: 0, cost: 0, updatedAt: createdAt };
      // Written beside the first request, not before it (each waits for the disk): the log's own
      // entries do not depend on them, and the writer's flush reports a meta.json that could not be
      // written. The index lists only task folders with a meta.json (list()), so its row may land first.
      const metaPath = join(dir, "meta.json");
      const settling = Promise.all([
        writeFileAtomic(metaPath, `${JSON.stringify(full, null, 1)}\n`).catch((error: Error) => {
          throw new Error(`could not write ${metaPath}: ${error.message}; the task will not be listed by cairn history (is the disk full?)`);
        }),
        appendJournal(this.indexPath, [summaryOf(full, progress)]).catch(() => {}),
      ]).then(() => undefined);
      metasOnTheirWay.set(metaPath, settling);
      void settling.finally(() => metasOnTheirWay.delete(metaPath)).catch(() => {});
      return this.writerFor({ meta: full, lock, startsMidLine: false, position: { apiHistoryLength: 0, uiMessageIds: [] }, progress, settling });
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** Opens an existing task for more entries (resume): takes its lock, then reads it. */
  async open(taskId: string): Promise<{ writer: TaskLogWriter; loaded: LoadedTask }> {
    const meta = await this.readMeta(taskId);
    const lock = await acquireTaskLock({ path: join(this.taskDir(taskId), "lock"), taskId });
    try {
      const { loaded, text, uiMessageIds } = await this.read(meta);
      // Running again: so the history says, until its next status or its end.
      const running: TaskProgress = { status: "running", tokensIn: loaded.tokensIn, tokensOut: loaded.tokensOut, cost: loaded.cost, updatedAt: Date.now(), ...(loaded.usage ? { usage: loaded.usage } : {}) };
      await appendJournal(this.indexPath, [summaryOf(meta, running)]).catch(() => {});
      const writer = this.writerFor({
        meta,
        lock,
        startsMidLine: text.length > 0 && !text.endsWith("\n"),
        position: { apiHistoryLength: loaded.apiHistory.length, uiMessageIds },
        progress: { status: loaded.status, tokensIn: loaded.tokensIn, tokensOut: loaded.tokensOut, cost: loaded.cost, updatedAt: loaded.updatedAt, ...(loaded.usage ? { usage: loaded.usage } : {}) },
      });
      return { writer, loaded };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** Reads a task without taking its lock (it may be running elsewhere). */
  async load(taskId: string): Promise<LoadedTask> {
    return (await this.read(await this.readMeta(taskId))).loaded;
  }

  /**
   * Cuts a task's conversation back to `position` by appending truncate entries:
   * the log stays append-only, and what was cut is still in the file for anyone who
   * needs to dig it out. Refused (TaskLockedError) while the task runs elsewhere.
   */
  async truncateConversation(taskId: string, position: ConversationPosition): Promise<void> {
    const { writer } = await this.open(taskId);
    try {
      writer.appendEntry({ kind: "api_truncate", length: position.apiHistoryLength });
      writer.appendEntry({ kind: "ui_truncate", count: position.uiMessageCount });
    } finally {
      await writer.close();
    }
  }

  /**
   * Every task, oldest first, from the history index and one listing of the tasks
   * folder; a log is read only for a task the index lacks or that died while
   * running (task-list.ts). A missing or damaged index is rebuilt from the logs.
   */
  async list(): Promise<TaskSummary[]> {
    return listTaskRows(this.listSource());
  }

  /**
   * The newest `limit` tasks, newest first (by start, or by last change with
   * `order: "updated"`), of one workspace or all, and how many match in all. Read
   * from the end of the history index, so its cost follows `limit`, not the number
   * of tasks (newest-rows.ts); the same rows as `list()` would give.
   */
  async listNewest(query: NewestQuery): Promise<NewestRows> {
    return listNewestRows(this.listSource(), query);
  }

  private listSource(): TaskListSource {
    return {
      tasksDir: this.tasksDir,
      journalPath: this.indexPath,
      legacyIndexPath: join(this.dataDir, "history.json"),
      readRow: async (taskId) => {
        const loaded = await this.load(taskId);
        const { status, tokensIn, tokensOut, cost, updatedAt, usage } = loaded;
        return summaryOf(loaded.meta, { status, tokensIn, tokensOut, cost, updatedAt, ...(usage ? { usage } : {}) });
      },
    };
  }

  /** Finds a task by its full id, its random tail, or a prefix that only one task has. */
  async resolveTaskId(input: string): Promise<string> {
    let folders: string[] = [];
    try {
      folders = await readdir(this.tasksDir);
    } catch {
      // No tasks yet.
    }
    if (folders.includes(input)) return input;
    const matches = folders.filter((id) => id.startsWith(input) || id.endsWith(`-${input}`));
    if (matches.length === 1 && matches[0] !== undefined) return matches[0];
    if (matches.length > 1) {
      throw new Error(`"${input}" matches ${matches.length} tasks (${matches.slice(0, 3).join(", ")}, ...); give more of the id`);
    }
    throw new TaskNotFoundError(input, this.dataDir);
  }

  private async readMeta(taskId: string): Promise<TaskMeta> {
    const path = join(this.taskDir(taskId), "meta.json");
    // A task this process has just created is read once its meta.json is written.
    await metasOnTheirWay.get(path)?.catch(() => {});
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch {
      throw new TaskNotFoundError(taskId, this.dataDir);
    }
    try {
      const meta = JSON.parse(text) as Partial<TaskMeta>;
      if (typeof meta.task !== "string" || typeof meta.workspace !== "string" || typeof meta.createdAt !== "number") {
        throw new Error("missing fields");
      }
      const parent = meta.parent;
      const linked = parent !== undefined && typeof parent.taskId === "string" && typeof parent.subagentId === "string" ? { parent: { taskId: parent.taskId, subagentId: parent.subagentId } } : {};
      const fork = meta.forkedFrom;
      const forked = fork !== undefined && typeof fork.taskId === "string" ? { forkedFrom: { taskId: fork.taskId, ...(typeof fork.at === "number" ? { at: fork.at } : {}) } } : {};
      const model = typeof meta.model === "string" ? { model: meta.model } : {};
      return { taskId, task: meta.task, workspace: meta.workspace, createdAt: meta.createdAt, ...linked, ...forked, ...model };
    } catch {
      throw new Error(`the task file ${path} is damaged (not the JSON cairn wrote); the task cannot be opened`);
    }
  }

  private async read(meta: TaskMeta): Promise<{ loaded: LoadedTask; text: string; uiMessageIds: string[] }> {
    const logPath = this.logPath(meta.taskId);
    let text = "";
    let updatedAt = meta.createdAt;
    try {
      text = await readFile(logPath, "utf8");
      updatedAt = Math.max(updatedAt, (await stat(logPath)).mtimeMs);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const read = readLog(text);
    const uiMessageIds = read.uiMessages.map((message) => message.id);
    return { loaded: { meta, ...read, updatedAt }, text, uiMessageIds };
  }

  private writerFor(options: {
    meta: TaskMeta;
    lock: { release(): Promise<void> };
    startsMidLine: boolean;
    position: { apiHistoryLength: number; uiMessageIds: string[] };
    progress: TaskProgress;
    settling?: Promise<void>;
  }): TaskLogWriter {
    const logPath = this.logPath(options.meta.taskId);
    const fd = openSync(logPath, "a");
    try {
      return new TaskLogWriter({
        taskId: options.meta.taskId,
        logPath,
        fd,
        startsMidLine: options.startsMidLine,
        initial: { ...options.position, progress: options.progress },
        lock: options.lock,
        onProgress: (progress) => appendJournal(this.indexPath, [summaryOf(options.meta, progress)]),
        ...(options.settling === undefined ? {} : { settling: options.settling }),
      });
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }
}

function summaryOf(meta: TaskMeta, progress: TaskProgress): TaskSummary {
  return {
    taskId: meta.taskId,
    title: taskTitle(meta.task),
    createdAt: meta.createdAt,
    updatedAt: progress.updatedAt,
    workspace: meta.workspace,
    tokensIn: progress.tokensIn,
    tokensOut: progress.tokensOut,
    cost: progress.cost,
    status: progress.status,
    ...(meta.forkedFrom === undefined ? {} : { forkedFrom: meta.forkedFrom.taskId }),
    ...(meta.parent === undefined ? {} : { parentTaskId: meta.parent.taskId }),
    ...(meta.model === undefined ? {} : { model: meta.model }),
    ...(progress.usage === undefined ? {} : { usage: progress.usage }),
  };
}
