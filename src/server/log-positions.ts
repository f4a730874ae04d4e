/**
 * A task's log as numbered events: the sequence number of an entry is its
 * position among the log's complete, valid entries (1 for the first). The log
 * is append-only and written before any client hears of an entry, so a server
 * started again numbers it the same way, and a client that reconnects with the
 * last number it saw gets exactly the entries after it.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { parseLogLine } from "../store/log-reader.js";
import type { StoreLogEntry } from "../store/types.js";

export interface NumberedEntry {
  seq: number;
  entry: StoreLogEntry;
}

/** The entries of `text` after position `after`, and the position of the last complete entry. A last line without its newline is still being written (or was cut off): it is left out. */
export function entriesAfter(text: string, after: number): { entries: NumberedEntry[]; end: number } {
  const entries: NumberedEntry[] = [];
  let seq = 0;
  let start = 0;
  for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
    const line = text.slice(start, newline);
    start = newline + 1;
    if (line.trim() === "") continue;
    const entry = parseLogLine(line);
    if (entry === undefined) continue;
    seq += 1;
    if (seq > after) entries.push({ seq, entry });
  }
  return { entries, end: seq };
}

/** The entries of the log at `path` after position `after` (none when there is no log yet). */
export async function readLogAfter(path: string, after: number): Promise<{ entries: NumberedEntry[]; end: number }> {
  return entriesAfter(await readFile(path, "utf8").catch(orEmpty), after);
}

/** How many complete entries the log at `path` holds now (where a run's live numbering starts). */
export function countLogEntries(path: string): number {
  let text = "";
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    orEmpty(error);
  }
  return entriesAfter(text, Number.POSITIVE_INFINITY).end;
}

function orEmpty(error: unknown): string {
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
  throw error;
}
