/**
 * What a compaction leaves at the start of the history journal (history-journal.ts),
 * kept beside it in `<journal>.shape`: the journal file (its inode), and the length
 * and row count of its sorted body, one row per task in the order of `createdAt`
 * and `taskId`. Whatever follows the body was appended since. A listing of the
 * newest tasks (newest-rows.ts) reads the appended part and the body's end only.
 *
 * The shape is written after the compacted journal is renamed into place, so a
 * reader that finds another inode (a compaction under way, a crash between the
 * two, a journal written by anything else) does not trust it and reads the whole
 * journal instead.
 */
import { readFileSync } from "node:fs";
import { writeFileAtomic } from "./atomic-file.js";

export interface JournalShape {
  /** The inode of the journal file this shape describes. */
  ino: number;
  /** Bytes of the sorted body at the file's start. */
  bodyBytes: number;
  /** Rows in the body: one per task. */
  bodyRows: number;
}

export function shapePath(journalPath: string): string {
  return `${journalPath}.shape`;
}

function isShape(value: unknown): value is JournalShape {
  if (typeof value !== "object" || value === null) return false;
  const shape = value as Record<string, unknown>;
  return ["ino", "bodyBytes", "bodyRows"].every((key) => Number.isSafeInteger(shape[key]) && (shape[key] as number) >= 0);
}

/** The shape beside the journal, or undefined when there is none or it is damaged. */
export function readJournalShape(journalPath: string): JournalShape | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(shapePath(journalPath), "utf8"));
    return isShape(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export async function writeJournalShape(journalPath: string, shape: JournalShape): Promise<void> {
  await writeFileAtomic(shapePath(journalPath), `${JSON.stringify(shape)}\n`);
}
