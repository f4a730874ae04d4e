import { readFile } from "node:fs/promises";
import type { TaskSummary } from "./types.js";

interface LegacyIndexFile {
  version: 1;
  tasks: TaskSummary[];
}

const statuses: ReadonlySet<string> = new Set(["running", "completed", "failed", "aborted", "budget"]);

/** Whether a parsed value is a whole index row. */
export function isSummary(value: unknown): value is TaskSummary {
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

/**
 * The rows of the index file earlier versions kept (`<dataDir>/history.json`, one
 * JSON document rewritten whole at each change), or undefined when it is missing
 * or damaged. Read once, when the journal (history-journal.ts) is first built.
 */
export async function readLegacyHistoryIndex(path: string): Promise<TaskSummary[] | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LegacyIndexFile>;
    if (parsed.version !== 1 || !Array.isArray(parsed.tasks)) return undefined;
    return parsed.tasks.filter(isSummary);
  } catch {
    return undefined;
  }
}

/** "Fix the login bug in the API server" → the first words, for one line of `cairn history`. */
export function taskTitle(task: string, maxLength = 80): string {
  const oneLine = task.replace(/\s+/g, " ").trim();
  if (oneLine.length <= maxLength) return oneLine;
  const cut = oneLine.slice(0, maxLength);
  const lastSpace = cut.lastIndexOf(" ");
  return `${(lastSpace > maxLength / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}
