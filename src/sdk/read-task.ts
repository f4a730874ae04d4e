/**
 * Tasks as their logs keep them: a task's history and totals (`readTask`) and
 * every task of a data folder (`listTasks`), read without running anything.
 */
import type { TaskSummary } from "../store/types.js";
import type { TaskStatus } from "../task/contracts/seams.js";
import type { UiMessage } from "../task/contracts/messages.js";
import type { TaskStore } from "../store/task-store.js";
import type { TaskOptions } from "./options.js";

export interface TaskRecord {
  taskId: string;
  /** The task as it was given. */
  task: string;
  workspace: string;
  createdAt: number;
  status: TaskStatus;
  /** Totals across every run of the task (its own requests; `cairn show` adds its subagents'). */
  tokensIn: number;
  tokensOut: number;
  cost: number;
  /** Every message in its final state, in order: what `cairn show` prints. */
  messages: UiMessage[];
  /** A subagent's task: its parent and its id there. */
  parent?: { taskId: string; subagentId: string };
  /** Damaged log lines that were skipped. */
  warnings: string[];
}

/** Where the tasks are: `dataDir`, or the data folder the settings of `cwd` name (as the CLI finds it). */
type Place = Pick<TaskOptions, "dataDir" | "cwd" | "env">;

async function storeFor(place: Place): Promise<TaskStore> {
  const { TaskStore } = await import("../store/task-store.js");
  if (place.dataDir !== undefined) return new TaskStore({ dataDir: place.dataDir });
  const { settingsFor } = await import("./options.js");
  return new TaskStore({ dataDir: (await settingsFor(place)).dataDir });
}

/** A task's history and totals, by id or a unique prefix of it. Throws `TaskNotFoundError` for an unknown id. */
export async function readTask(taskId: string, place: Place = {}): Promise<TaskRecord> {
  const store = await storeFor(place);
  const loaded = await store.load(await store.resolveTaskId(taskId));
  const { meta } = loaded;
  return {
    taskId: meta.taskId,
    task: meta.task,
    workspace: meta.workspace,
    createdAt: meta.createdAt,
    status: loaded.status,
    tokensIn: loaded.tokensIn,
    tokensOut: loaded.tokensOut,
    cost: loaded.cost,
    messages: loaded.uiMessages,
    ...(meta.parent === undefined ? {} : { parent: meta.parent }),
    warnings: loaded.warnings,
  };
}

/**
 * Every task of the data folder, newest first, as `cairn history` lists them; with
 * `limit`, only the newest that many, read from the end of the history index (its
 * cost follows `limit`, not the number of tasks).
 */
export async function listTasks(place: Place & { limit?: number } = {}): Promise<TaskSummary[]> {
  const store = await storeFor(place);
  if (place.limit !== undefined) return (await store.listNewest({ limit: place.limit })).rows;
  // The store lists in the order tasks were started; the newest is what a caller wants first, as in `cairn history`.
  return store.list().then((rows) => rows.reverse());
}
