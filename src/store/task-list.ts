/**
 * Every task of a data folder, from the history journal (history-journal.ts)
 * and one listing of the tasks folder, without reading the tasks' logs:
 * - a task folder without a row (a row lost to a crash, a task written by an
 *   older version, a damaged or deleted journal) is read from its log once, and
 *   its row written, so the next listing finds it;
 * - a row that says "running" while no live process holds the task's lock is a
 *   task killed while it ran: its log is read again once and the row written
 *   with what the log says (and "aborted" where the log says "running" too);
 * - rows of deleted folders are not listed.
 * When the journal is missing it is built from the logs (and from the index file
 * of earlier versions, for the rows that are not older than their log); when it
 * holds damaged lines, far more records than tasks, rows of deleted folders, or
 * more appended rows than a listing of the newest tasks reads (newest-rows.ts),
 * it is written whole again.
 */
import { readdir, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { readLegacyHistoryIndex } from "./history-index.js";
import { appendJournal, compactJournal, readJournal } from "./history-journal.js";
import { readJournalShape } from "./journal-shape.js";
import { isLockHeld } from "./lock.js";
import { appendedBytesAtMost, byCreation, readNewestRows, type NewestQuery, type NewestRows } from "./newest-rows.js";
import type { TaskSummary } from "./types.js";

export interface TaskListSource {
  tasksDir: string;
  journalPath: string;
  /** `history.json` of earlier versions: read only while the journal is built. */
  legacyIndexPath: string;
  /** A task's row as its log says; throws when the folder is not a readable task. */
  readRow(taskId: string): Promise<TaskSummary>;
}

/** Rows read again or found beyond this many are written by a compaction, not appended. */
const appendAtMost = 256;

async function taskFolders(tasksDir: string): Promise<string[]> {
  try {
    return (await readdir(tasksDir, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch {
    return [];
  }
}

/** The earlier version's rows that are at least as new as their log (its own rule); the rest are read again. */
async function trustedLegacyRows(source: TaskListSource): Promise<Map<string, TaskSummary>> {
  const rows = new Map<string, TaskSummary>();
  for (const row of (await readLegacyHistoryIndex(source.legacyIndexPath)) ?? []) {
    const logTime = await stat(join(source.tasksDir, row.taskId, "log.jsonl")).then(
      (info) => info.mtimeMs,
      () => 0,
    );
    if (logTime <= row.updatedAt + 1) rows.set(row.taskId, row);
  }
  return rows;
}

/** A "running" row whose process is gone, as its log says now. */
async function afterDeath(source: TaskListSource, row: TaskSummary): Promise<TaskSummary> {
  const fromLog = await source.readRow(row.taskId).catch(() => row);
  const status = fromLog.status === "running" ? "aborted" : fromLog.status;
  return { ...fromLog, status, updatedAt: Math.max(row.updatedAt, fromLog.updatedAt) };
}

/** `read` of every item, a few at a time (a rebuild reads thousands of logs). */
async function inBatches<T>(items: readonly string[], read: (item: string) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < items.length; start += 16) results.push(...(await Promise.all(items.slice(start, start + 16).map(read))));
  return results;
}

export async function listTaskRows(source: TaskListSource): Promise<TaskSummary[]> {
  const journal = await readJournal(source.journalPath);
  const legacy = journal === undefined ? await trustedLegacyRows(source) : undefined;
  const indexed = journal?.rows ?? new Map<string, TaskSummary>();
  const rows: TaskSummary[] = [];
  const written: TaskSummary[] = [];
  const unknown: string[] = [];
  for (const taskId of await taskFolders(source.tasksDir)) {
    const row = indexed.get(taskId) ?? legacy?.get(taskId);
    if (row === undefined) unknown.push(taskId);
    else rows.push(row);
    if (row !== undefined && !indexed.has(taskId)) written.push(row);
  }
  // A folder that is not a readable task (no meta.json) is not listed.
  const found = (await inBatches(unknown, (taskId) => source.readRow(taskId).catch(() => undefined))).filter((row) => row !== undefined);
  rows.push(...found);
  written.push(...found);
  for (const [index, row] of rows.entries()) {
    if (row.status !== "running" || (await isLockHeld(join(source.tasksDir, row.taskId, "lock")))) continue;
    rows[index] = await afterDeath(source, row);
    written.push(rows[index]);
  }
  const listed = new Set(rows.map((row) => row.taskId));
  const gone = new Set([...indexed.keys()].filter((taskId) => !listed.has(taskId)));
  // The index can always be rebuilt from the logs: failing to write it is never the caller's problem.
  try {
    const records = (journal?.records ?? 0) + written.length;
    if (journal === undefined || journal.damaged > 0 || written.length > appendAtMost || records > 2 * rows.length + appendAtMost || gone.size > 0 || !(await fitsNewestReads(source.journalPath))) {
      if ((await compactJournal(source.journalPath, written, gone)) && journal === undefined) await unlink(source.legacyIndexPath).catch(() => {});
    } else {
      await appendJournal(source.journalPath, written);
    }
  } catch {
    // A read-only data folder: listed all the same.
  }
  return rows.sort(byCreation);
}

/** Whether the journal's sorted body is described (journal-shape.ts) and little was appended after it. */
async function fitsNewestReads(journalPath: string): Promise<boolean> {
  const shape = readJournalShape(journalPath);
  if (shape === undefined) return false;
  const info = await stat(journalPath).catch(() => undefined);
  return info !== undefined && info.ino === shape.ino && info.size >= shape.bodyBytes && info.size - shape.bodyBytes <= appendedBytesAtMost;
}

/**
 * The newest rows (newest first) and how many tasks match in all: read from the
 * journal's end (newest-rows.ts) when it can answer, else from the whole listing.
 * A shown row that says "running" with no live lock holder is read from its log
 * and written again, as the whole listing does.
 */
export async function listNewestRows(source: TaskListSource, query: NewestQuery): Promise<NewestRows> {
  const newest = readNewestRows(source.journalPath, source.tasksDir, query);
  if (newest === undefined) {
    const all = (await listTaskRows(source)).filter((row) => query.workspace === undefined || row.workspace === query.workspace).reverse();
    if (query.order === "updated") all.sort((left, right) => right.updatedAt - left.updatedAt || byCreation(right, left));
    return { rows: all.slice(0, query.limit), total: all.length };
  }
  const healed: TaskSummary[] = [];
  for (const [index, row] of newest.rows.entries()) {
    if (row.status !== "running" || (await isLockHeld(join(source.tasksDir, row.taskId, "lock")))) continue;
    newest.rows[index] = await afterDeath(source, row);
    healed.push(newest.rows[index]);
  }
  await appendJournal(source.journalPath, healed).catch(() => {});
  return newest;
}
