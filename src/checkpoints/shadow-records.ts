import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChangedFile, Checkpoint, CheckpointNote } from "./tracker.js";

/** The first words of every checkpoint commit's message. */
export const checkpointSubjectPrefix = "cairn checkpoint";

/** A checkpoint commit's message: a subject, then the note as JSON. */
export const checkpointMessage = (note: CheckpointNote): string => `${checkpointSubjectPrefix}: ${note.reason} (task ${note.taskId})\n\n${JSON.stringify(note)}\n`;

/**
 * HEAD's commit read from the shadow repository's files (loose or packed ref):
 * a git process per lookup is most of a checkpoint's cost. Undefined when unsure.
 */
export async function readHeadHash(gitDir: string): Promise<string | undefined> {
  const read = (path: string): Promise<string | undefined> =>
    readFile(join(gitDir, path), "utf8").then(
      (text) => text,
      () => undefined,
    );
  const head = (await read("HEAD"))?.trim();
  if (head === undefined) return undefined;
  if (/^[0-9a-f]{40}$/.test(head)) return head;
  const reference = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1];
  if (reference === undefined) return undefined;
  const loose = (await read(reference))?.trim();
  if (loose !== undefined && /^[0-9a-f]{40}$/.test(loose)) return loose;
  const packed = (await read("packed-refs"))?.split("\n").find((line) => line.endsWith(` ${reference}`));
  const hash = packed?.split(" ")[0];
  return hash !== undefined && /^[0-9a-f]{40}$/.test(hash) ? hash : undefined;
}

export function parseNote(body: string): CheckpointNote | undefined {
  if (!body.startsWith(checkpointSubjectPrefix)) return undefined;
  const json = body.slice(body.indexOf("\n\n") + 2).trim();
  try {
    const note = JSON.parse(json) as Partial<CheckpointNote>;
    if (typeof note.taskId !== "string" || typeof note.reason !== "string") return undefined;
    return note as CheckpointNote;
  } catch {
    return undefined;
  }
}

export function parseNameStatus(output: string): ChangedFile[] {
  const parts = output.split("\0");
  const files: ChangedFile[] = [];
  for (let index = 0; index + 1 < parts.length; index += 2) {
    const code = parts[index]!;
    const path = parts[index + 1]!;
    const status = code.startsWith("A") ? "added" : code.startsWith("D") ? "deleted" : "modified";
    files.push({ path, status });
  }
  return files;
}

/** The format `parseCheckpointLog` reads: hash, commit time and message, fields and records separated by control characters. */
export const checkpointLogFormat = "--format=%H%x1f%ct%x1f%B%x1e";

/** The checkpoints of a `git log` in `checkpointLogFormat`, in its order; only `taskId`'s when given. */
export function parseCheckpointLog(output: string, taskId?: string): Checkpoint[] {
  const checkpoints: Checkpoint[] = [];
  for (const record of output.split("\x1e")) {
    const [hash, seconds, body] = record.trim().split("\x1f");
    if (hash === undefined || seconds === undefined || body === undefined) continue;
    const note = parseNote(body);
    if (note === undefined || (taskId !== undefined && note.taskId !== taskId)) continue;
    checkpoints.push({ hash, createdAt: Number(seconds) * 1000, ...note });
  }
  return checkpoints;
}
