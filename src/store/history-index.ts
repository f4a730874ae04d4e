import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "./atomic-file.js";
import type { TaskSummary } from "./types.js";

interface IndexFile {
  version: 1;
  tasks: TaskSummary[];
}

const statuses: ReadonlySet<string> = new Set(["running", "completed", "failed", "aborted", "budget"]);

function isSummary(value: unknown): value is TaskSummary {
  if (typeof value !== "object" || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    typeof row["taskId"] === "string" &&
    typeof row["title"] === "string" &&
    typeof row["createdAt"] === "number" &&
    typeof row["updatedAt"] === "number" &&
    typeof row["workspace"] === "string" &&
    typeof row["tokensIn"] === "number" &&
    typeof row["tokensOut"] === "number" &&
    typeof row["cost"] === "number" &&
    statuses.has(String(row["status"]))
  );
}

/** The index rows, or undefined when the file is missing or damaged (the caller rebuilds it). */
export async function readHistoryIndex(path: string): Promise<TaskSummary[] | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as Partial<IndexFile>;
    if (parsed.version !== 1 || !Array.isArray(parsed.tasks)) return undefined;
    return parsed.tasks.every(isSummary) ? parsed.tasks : undefined;
  } catch {
    return undefined;
  }
}

export async function writeHistoryIndex(path: string, tasks: TaskSummary[]): Promise<void> {
  const sorted = [...tasks].sort((left, right) => left.createdAt - right.createdAt || left.taskId.localeCompare(right.taskId));
  const file: IndexFile = { version: 1, tasks: sorted };
  await writeFileAtomic(path, `${JSON.stringify(file, null, 1)}\n`);
}

/** Puts one task's row into the index (read, replace, rename over). */
export async function upsertHistoryRow(path: string, row: TaskSummary): Promise<void> {
  const rows = (await readHistoryIndex(path)) ?? [];
  const others = rows.filter((existing) => existing.taskId !== row.taskId);
  await writeHistoryIndex(path, [...others, row]);
}

/** "Fix the login bug in the API server" → the first words, for one line of `cairn history`. */
export function taskTitle(task: string, maxLength = 80): string {
  const oneLine = task.replace(/\s+/g, " ").trim();
  if (oneLine.length <= maxLength) return oneLine;
  const cut = oneLine.slice(0, maxLength);
  const lastSpace = cut.lastIndexOf(" ");
  return `${(lastSpace > maxLength / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}
