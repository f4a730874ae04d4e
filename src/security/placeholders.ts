/**
 * Empty read-only folders that stand where a missing protected path would be
 * created (`.cairn`, `AGENTS.md`, `.git/hooks` …) while a sandboxed process
 * runs: bubblewrap needs a mount point there, and a folder (unlike a file) is
 * invisible to git, so `git add -A` in the sandbox cannot commit it. Counted
 * per path across every sandboxed process of this cairn, removed when the
 * last one ends, and recorded (with the owner's pid) so that a cairn that
 * died mid-command leaves nothing behind after its next start. The record
 * lists every path this cairn may hold, written when a new one joins (not at
 * each command: commands in a row cost no write) and cleared as it exits.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const counts = new Map<string, number>();
/** Paths in this process's entries of the record: each may be held now or again soon. */
const recorded = new Set<string>();
let recordFile: string | undefined;
let forgetsAtExit = false;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readRecord(file: string): Array<{ path: string; pid: number }> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((entry: unknown): entry is { path: string; pid: number } => {
      const fields = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>) : {};
      return typeof fields["path"] === "string" && typeof fields["pid"] === "number";
    });
  } catch {
    return [];
  }
}

function writeRecord(): void {
  if (recordFile === undefined) return;
  const others = readRecord(recordFile).filter((entry) => entry.pid !== process.pid && alive(entry.pid));
  const mine = [...recorded].map((path) => ({ path, pid: process.pid }));
  try {
    mkdirSync(dirname(recordFile), { recursive: true });
    const temporary = `${recordFile}.${process.pid}`;
    writeFileSync(temporary, JSON.stringify([...others, ...mine]));
    renameSync(temporary, recordFile);
  } catch {
    // The record only helps clean up after a crash; a full disk must not stop a command.
  }
}

function removeIfEmpty(path: string): void {
  try {
    if (readdirSync(path).length === 0) rmdirSync(path);
  } catch {
    // Gone already, or someone put something there: leave it.
  }
}

/**
 * Where placeholders are recorded (in cairn's data folder), and removes those
 * a cairn that is no longer running left behind.
 */
export function usePlaceholderRecord(file: string): void {
  if (recordFile === file) return;
  recordFile = file;
  const entries = readRecord(file);
  const stale = entries.filter((entry) => !alive(entry.pid));
  for (const entry of stale) removeIfEmpty(entry.path);
  if (stale.length > 0) writeRecord();
}

/**
 * Creates the missing folders (each only if its parent exists) and returns the release function.
 * A new path is recorded before its folder is made, so a cairn killed in between leaves nothing unrecorded.
 */
export function acquirePlaceholders(paths: readonly string[]): { created: string[]; release(): void } {
  const fresh = paths.filter((path) => !counts.has(path) && !recorded.has(path));
  if (fresh.length > 0) {
    if (!forgetsAtExit) process.once("exit", forgetRecorded);
    forgetsAtExit = true;
    for (const path of fresh) recorded.add(path);
    writeRecord();
  }
  const created: string[] = [];
  for (const path of paths) {
    const count = counts.get(path);
    if (count !== undefined) {
      counts.set(path, count + 1);
      created.push(path);
      continue;
    }
    try {
      mkdirSync(path, { mode: 0o555 });
    } catch {
      continue;
    }
    counts.set(path, 1);
    created.push(path);
  }
  // A path this cairn could not make is someone else's: it is not left in the record for a later start to remove.
  const notMade = fresh.filter((path) => !counts.has(path));
  if (notMade.length > 0) {
    for (const path of notMade) recorded.delete(path);
    writeRecord();
  }
  let released = false;
  return {
    created,
    release() {
      if (released) return;
      released = true;
      for (const path of created) {
        const count = (counts.get(path) ?? 1) - 1;
        if (count > 0) {
          counts.set(path, count);
          continue;
        }
        counts.delete(path);
        removeIfEmpty(path);
      }
    },
  };
}

/** As this cairn exits (its placeholders released): nothing of it is left for the next start to clean up. */
function forgetRecorded(): void {
  for (const path of counts.keys()) removeIfEmpty(path);
  recorded.clear();
  writeRecord();
}

/** For tests: the placeholders this process holds. */
export function heldPlaceholders(): string[] {
  return [...counts.keys()].sort();
}

export const placeholderRecordName = join("sandbox", "placeholders.json");
