/**
 * Empty read-only folders that stand where a missing protected path would be
 * created (`.cairn`, `AGENTS.md`, `.git/hooks` …) while a sandboxed process
 * runs: bubblewrap needs a mount point there, and a folder (unlike a file) is
 * invisible to git, so `git add -A` in the sandbox cannot commit it. Counted
 * per path across every sandboxed process of this cairn, removed when the
 * last one ends, and recorded (with the owner's pid) so that a cairn that
 * died mid-command leaves nothing behind after its next start.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const counts = new Map<string, number>();
let recordFile: string | undefined;

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
  const mine = [...counts.keys()].map((path) => ({ path, pid: process.pid }));
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

/** Creates the missing folders (each only if its parent exists) and returns the release function. */
export function acquirePlaceholders(paths: readonly string[]): { created: string[]; release(): void } {
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
  if (created.length > 0) writeRecord();
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
      if (created.length > 0) writeRecord();
    },
  };
}

/** For tests: the placeholders this process holds. */
export function heldPlaceholders(): string[] {
  return [...counts.keys()].sort();
}

export const placeholderRecordName = join("sandbox", "placeholders.json");
