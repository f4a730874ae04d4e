/**
 * The history index as an append-only journal, `<dataDir>/history.jsonl`: one
 * task row per line, the newest row of a task wins (by `updatedAt`, then by
 * position). Each change of a task's row appends one line with a single
 * O_APPEND write, so two tasks finishing at once cannot lose each other's row
 * (a read-modify-write of one file would), and an append costs the same with
 * 10,000 tasks as with one.
 *
 * Every record is written as "\n<json>\n": a line torn by a crash is ended by
 * the next record's newline and skipped as damage, never glued to it.
 *
 * Compaction rewrites the journal with one row per task (under a lock file, so
 * one process at a time) and renames it over the old one. An append that lands
 * in the old file meanwhile is not lost: the compactor copies what was appended
 * to the old file after it read it, and the appender, seeing that the name now
 * points to another file, appends its row again. A row appended twice is
 * harmless (the same row, or an older one that loses by `updatedAt`).
 */
import { open, readFile, stat, type FileHandle } from "node:fs/promises";
import { acquireTaskLock, TaskLockedError } from "./lock.js";
import { isSummary } from "./history-index.js";
import { writeFileAtomic } from "./atomic-file.js";
import { writeJournalShape } from "./journal-shape.js";
import type { TaskSummary } from "./types.js";

export interface JournalRead {
  rows: Map<string, TaskSummary>;
  /** Records in the file (superseded rows and damaged lines included): compaction is due when far above `rows.size`. */
  records: number;
  /** Lines that are not rows (torn by a crash, or damage): the journal is written whole again. */
  damaged: number;
}

/** Keeps `row` unless `rows` already has a newer one of the same task. */
export function keepNewest(rows: Map<string, TaskSummary>, row: TaskSummary): void {
  const known = rows.get(row.taskId);
  if (known === undefined || row.updatedAt >= known.updatedAt) rows.set(row.taskId, row);
}

/** The rows of journal text; damaged lines are skipped. */
export function parseJournal(text: string, into: Map<string, TaskSummary> = new Map()): JournalRead {
  let records = 0;
  let damaged = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    records += 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (isSummary(value)) keepNewest(into, value);
    else damaged += 1;
  }
  return { rows: into, records, damaged };
}

/** The journal's rows, or undefined when there is no journal. */
export async function readJournal(path: string): Promise<JournalRead | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  return parseJournal(text);
}

async function readFrom(handle: FileHandle, position: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let offset = position; ;) {
    const buffer = Buffer.alloc(1 << 20);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
    if (bytesRead === 0) break;
    parts.push(buffer.subarray(0, bytesRead));
    offset += bytesRead;
  }
  return Buffer.concat(parts);
}

function record(row: TaskSummary): string {
  return `\n${JSON.stringify(row)}\n`;
}

/** Appends records (one write) to the journal, again to the new file if a compaction replaced it meanwhile. */
export async function appendJournal(path: string, rows: readonly TaskSummary[]): Promise<void> {
  if (rows.length === 0) return;
  const buffer = Buffer.from(rows.map(record).join(""), "utf8");
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const handle = await open(path, "a");
    let writtenTo: number;
    try {
      const { bytesWritten } = await handle.write(buffer, 0, buffer.length);
      if (bytesWritten !== buffer.length) throw new Error(`the history index ${path} took ${bytesWritten} of ${buffer.length} bytes (is the disk full?)`);
      writtenTo = (await handle.stat()).ino;
    } finally {
      await handle.close();
    }
    const current = await stat(path).then(
      (info) => info.ino,
      () => undefined,
    );
    if (current === writtenTo) return;
  }
}

/**
 * Rewrites the journal with one row per task: its own newest rows, `rows` (what
 * the caller found, e.g. read again from logs) where they are as new, without the
 * tasks in `drop`. False when another process is compacting it right now.
 */
export async function compactJournal(path: string, rows: Iterable<TaskSummary>, drop: ReadonlySet<string> = new Set()): Promise<boolean> {
  let lock;
  try {
    lock = await acquireTaskLock({ path: `${path}.lock`, taskId: "the history index" });
  } catch (error) {
    if (error instanceof TaskLockedError) return false;
    throw error;
  }
  try {
    const old = await open(path, "r").catch(() => undefined);
    try {
      const merged = new Map<string, TaskSummary>();
      let readUpTo = 0;
      if (old !== undefined) {
        const text = await readFrom(old, 0);
        // A record still being written is read again with the tail, below.
        readUpTo = text.lastIndexOf(10) + 1;
        parseJournal(text.subarray(0, readUpTo).toString("utf8"), merged);
      }
      for (const row of rows) keepNewest(merged, row);
      for (const taskId of drop) merged.delete(taskId);
      const sorted = [...merged.values()].sort((left, right) => left.createdAt - right.createdAt || left.taskId.localeCompare(right.taskId));
      const body = sorted.map((row) => `${JSON.stringify(row)}\n`).join("");
      await writeFileAtomic(path, body);
      // What listings of the newest tasks read from the end (journal-shape.ts).
      await writeJournalShape(path, { ino: (await stat(path)).ino, bodyBytes: Buffer.byteLength(body, "utf8"), bodyRows: sorted.length });
      if (old !== undefined) {
        // Appended to the old file after it was read: carried over (their writers append again too).
        const tail = parseJournal((await readFrom(old, readUpTo)).toString("utf8"));
        await appendJournal(
          path,
          [...tail.rows.values()].filter((row) => !drop.has(row.taskId)),
        );
      }
    } finally {
      await old?.close();
    }
    return true;
  } finally {
    await lock.release();
  }
}
