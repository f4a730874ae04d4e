/**
 * The newest rows of the history journal read from its end (issue 33: a listing
 * of 10,000 tasks must not parse 10,000 rows to show fifty). The journal is a
 * sorted body of one row per task, as its last compaction wrote it
 * (journal-shape.ts), followed by the rows appended since. This reads the
 * appended part whole and the body backwards from its end, only as far as the
 * newest rows go, and says how many tasks there are in all.
 *
 * It answers only when it can be sure the answer is the whole listing's
 * (task-list.ts): undefined, and the caller reads everything, when the shape is
 * missing or describes another file, the appended part is large or holds a
 * damaged line, or the number of tasks the journal knows differs from the number
 * of folders in the tasks folder (a folder without a row, a row whose folder was
 * deleted: the whole listing heals both), or a task it would show has no folder.
 * One case passes unseen: a folder without a row (its start's append failed, or it
 * was copied in by hand) while as many tasks not shown were deleted; it is listed
 * by the next whole listing (`list()`, `cairn history --all`).
 */
import { closeSync, fstatSync, openSync, readSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { keepNewest, parseJournal } from "./history-journal.js";
import { isSummary } from "./history-index.js";
import { readJournalShape } from "./journal-shape.js";
import type { TaskSummary } from "./types.js";

/** An appended part larger than this is compacted by the whole listing rather than read here. */
export const appendedBytesAtMost = 128 * 1024;
/** Appended tasks older than the body's newest row are searched in its text one by one; beyond this many the whole listing answers. */
const searchesAtMost = 16;
const chunkBytes = 1 << 16;

/** Oldest first, as the body is sorted (history-journal.ts `compactJournal`). */
export function byCreation(left: TaskSummary, right: TaskSummary): number {
  return left.createdAt - right.createdAt || left.taskId.localeCompare(right.taskId);
}

export interface NewestQuery {
  /** At most this many rows, newest first. */
  limit: number;
  /** Only this workspace's tasks. */
  workspace?: string;
  /** Newest by start (`created`, the default: `cairn history`) or by last change (`updated`: `cairn -c`, the picker). */
  order?: "created" | "updated";
}

export interface NewestRows {
  /** Newest first. */
  rows: TaskSummary[];
  /** Tasks that match the query in all (`rows` included). */
  total: number;
}

/** A row of the journal's text, or undefined when the line is not one. */
function parseRow(line: string): TaskSummary | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isSummary(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function readRange(fd: number, start: number, end: number): Buffer {
  const buffer = Buffer.allocUnsafe(end - start);
  let done = 0;
  while (done < buffer.length) {
    const read = readSync(fd, buffer, done, buffer.length - done, start + done);
    if (read === 0) break;
    done += read;
  }
  return buffer.subarray(0, done);
}

/** The body's rows from its end backwards (whole lines only; undefined for a line that is not a row). */
function* bodyBackwards(fd: number, bodyBytes: number): Generator<TaskSummary | undefined> {
  let end = bodyBytes;
  let carry: Buffer = Buffer.alloc(0);
  while (end > 0) {
    const start = Math.max(0, end - chunkBytes);
    const chunk = Buffer.concat([readRange(fd, start, end), carry]);
    // Up to its first newline the chunk may end a line that starts in the chunk before: kept as bytes
    // (a cut may fall inside a character) and read with that chunk.
    const firstNewline = start === 0 ? -1 : chunk.indexOf(10);
    carry = start === 0 ? Buffer.alloc(0) : chunk.subarray(0, firstNewline < 0 ? chunk.length : firstNewline);
    const lines = start === 0 ? chunk.toString("utf8").split("\n") : firstNewline < 0 ? [] : chunk.toString("utf8", firstNewline + 1).split("\n");
    for (let index = lines.length - 1; index >= 0; index -= 1) {
      const line = lines[index]!;
      if (line === "") continue;
      yield parseRow(line);
    }
    end = start;
  }
}

/** Folders in the tasks folder: the directory's link count where the file system keeps it (ext4, xfs, tmpfs), else one listing. */
function folderCount(tasksDir: string): number {
  try {
    const links = statSync(tasksDir).nlink;
    if (links >= 2) return links - 2;
    return readdirSync(tasksDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).length;
  } catch {
    return 0;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

interface Reader {
  fd: number;
  bodyBytes: number;
  bodyRows: number;
  /** Rows appended after the body, the newest of each task. */
  appended: Map<string, TaskSummary>;
}

function open(journalPath: string): Reader | undefined {
  const shape = readJournalShape(journalPath);
  if (shape === undefined) return undefined;
  let fd: number;
  try {
    fd = openSync(journalPath, "r");
  } catch {
    return undefined;
  }
  const info = fstatSync(fd);
  if (info.ino !== shape.ino || info.size < shape.bodyBytes || info.size - shape.bodyBytes > appendedBytesAtMost) {
    closeSync(fd);
    return undefined;
  }
  const appended = parseJournal(readRange(fd, shape.bodyBytes, info.size).toString("utf8"));
  if (appended.damaged > 0) {
    closeSync(fd);
    return undefined;
  }
  return { fd, bodyBytes: shape.bodyBytes, bodyRows: shape.bodyRows, appended: appended.rows };
}

/** The body's row of each of `taskIds` that has one (the body's text searched once per task). */
function bodyRowsOf(body: Buffer, taskIds: readonly string[]): Map<string, TaskSummary> {
  const found = new Map<string, TaskSummary>();
  for (const taskId of taskIds) {
    const needle = `{"taskId":${JSON.stringify(taskId)},`;
    for (let at = body.indexOf(needle); at >= 0; at = body.indexOf(needle, at + 1)) {
      if (at > 0 && body[at - 1] !== 10) continue;
      const end = body.indexOf(10, at);
      const row = parseRow(body.toString("utf8", at, end < 0 ? body.length : end));
      if (row?.taskId === taskId) found.set(taskId, row);
      break;
    }
  }
  return found;
}

interface Merged {
  /** Each appended task's row, the newer of its appended and body rows (as in a whole read). */
  merged: Map<string, TaskSummary>;
  /** Appended tasks the body does not hold. */
  newTasks: number;
}

/**
 * The appended rows merged with the body's rows of the same tasks. `known`: body rows
 * already read; `body`: its text, when read. An appended task newer than the body's
 * newest row cannot be in the body (a task's `createdAt` and id never change).
 */
function mergeAppended(reader: Reader, known: Map<string, TaskSummary>, bodyNewest: TaskSummary | undefined, body?: Buffer): Merged | undefined {
  const appended = [...reader.appended.values()];
  const unsure = appended.filter((row) => !known.has(row.taskId) && bodyNewest !== undefined && byCreation(row, bodyNewest) <= 0).map((row) => row.taskId);
  if (unsure.length > searchesAtMost) return undefined;
  const inBody = new Map(known);
  if (unsure.length > 0) for (const [taskId, row] of bodyRowsOf(body ?? readRange(reader.fd, 0, reader.bodyBytes), unsure)) inBody.set(taskId, row);
  const merged = new Map<string, TaskSummary>();
  let newTasks = 0;
  for (const row of appended) {
    const bodyRow = inBody.get(row.taskId);
    if (bodyRow === undefined) newTasks += 1;
    else merged.set(row.taskId, bodyRow);
    keepNewest(merged, row);
  }
  return { merged, newTasks };
}

/** Newest by start, without a workspace: the body read backwards until the newest `limit` are known. */
function newestCreated(reader: Reader, limit: number): { rows: TaskSummary[]; newTasks: number } | undefined {
  const fromBody = new Map<string, TaskSummary>();
  const appendedRows = [...reader.appended.values()];
  let bodyNewest: TaskSummary | undefined;
  for (const row of bodyBackwards(reader.fd, reader.bodyBytes)) {
    if (row === undefined) return undefined;
    bodyNewest ??= row;
    fromBody.set(row.taskId, row);
    // Every body row before this one is older than it.
    const newer = appendedRows.filter((appended) => byCreation(appended, row) > 0 && !fromBody.has(appended.taskId)).length;
    if (fromBody.size + newer >= limit) break;
  }
  const merged = mergeAppended(reader, fromBody, bodyNewest);
  if (merged === undefined) return undefined;
  return { rows: [...new Map([...fromBody, ...merged.merged]).values()], newTasks: merged.newTasks };
}

/** Every body row of one workspace (its name searched in the body's text), for either order. */
function workspaceRows(reader: Reader, workspace: string): { rows: TaskSummary[]; merged: Merged } | undefined {
  const body = readRange(reader.fd, 0, reader.bodyBytes);
  const needle = `"workspace":${JSON.stringify(workspace)}`;
  const own = new Map<string, TaskSummary>();
  for (let at = body.indexOf(needle); at >= 0; at = body.indexOf(needle, at + needle.length)) {
    const start = body.lastIndexOf(10, at) + 1;
    const end = body.indexOf(10, at);
    const row = parseRow(body.toString("utf8", start, end < 0 ? body.length : end));
    if (row === undefined) return undefined;
    if (row.workspace === workspace) own.set(row.taskId, row);
  }
  // The body's newest row: its last line.
  const lastLineStart = body.lastIndexOf(10, body.length - 2) + 1;
  const bodyNewest = body.length === 0 ? undefined : parseRow(body.toString("utf8", lastLineStart, body.length - 1));
  if (body.length > 0 && bodyNewest === undefined) return undefined;
  const merged = mergeAppended(reader, own, bodyNewest, body);
  return merged === undefined ? undefined : { rows: [...new Map([...own, ...merged.merged]).values()], merged };
}

/** The newest rows for `query`, or undefined when only a whole read of the journal and the tasks folder can say. */
export function readNewestRows(journalPath: string, tasksDir: string, query: NewestQuery): NewestRows | undefined {
  const reader = open(journalPath);
  if (reader === undefined) return undefined;
  try {
    const everyWorkspace = query.workspace === undefined;
    if (everyWorkspace && query.order === "updated") return undefined;
    const found = query.workspace === undefined ? newestCreated(reader, query.limit) : workspaceRows(reader, query.workspace);
    if (found === undefined) return undefined;
    const candidates = found.rows;
    const newTasks = "newTasks" in found ? found.newTasks : found.merged.newTasks;
    const allTasks = reader.bodyRows + newTasks;
    if (folderCount(tasksDir) !== allTasks) return undefined;
    const matching = candidates.filter((row) => query.workspace === undefined || row.workspace === query.workspace);
    const order = query.order === "updated" ? (left: TaskSummary, right: TaskSummary) => right.updatedAt - left.updatedAt || byCreation(right, left) : (left: TaskSummary, right: TaskSummary) => byCreation(right, left);
    matching.sort(order);
    const shown = matching.slice(0, query.limit);
    // A shown task whose folder was deleted: the whole listing leaves it out and drops its row.
    if (!shown.every((row) => isFolder(join(tasksDir, row.taskId)))) return undefined;
    return { rows: shown, total: query.workspace === undefined ? allTasks : matching.length };
  } finally {
    closeSync(reader.fd);
  }
}
