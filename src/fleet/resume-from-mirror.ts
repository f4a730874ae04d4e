/**
 * A takeover: the dead worker's task is rebuilt on this machine from the log
 * mirrored in Redis, so `cairn resume`'s own logic continues it (the
 * interrupted step reported to the model as interrupted, completed steps kept).
 */
import { metaOf, type ApiRequestMeta } from "../task/contracts/message-meta.js";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { TaskStore } from "../store/task-store.js";
import type { StoreLogEntry } from "../store/types.js";
import type { TaskStatus } from "../task/contracts/seams.js";

export interface MirroredTaskState {
  /** The last status the task wrote (a completed task is not run again). */
  lastStatus: TaskStatus | undefined;
  /** Requests already made (for the turns budget and the report). */
  turns: number;
  report: string | undefined;
  tokensIn: number;
  tokensOut: number;
  cost: number;
}

export function summarizeEntries(entries: readonly StoreLogEntry[]): MirroredTaskState {
  const state: MirroredTaskState = { lastStatus: undefined, turns: 0, report: undefined, tokensIn: 0, tokensOut: 0, cost: 0 };
  // Usage per request, from each request's final message (a dead worker wrote no status entry).
  const requests = new Map<string, ApiRequestMeta | undefined>();
  for (const entry of entries) {
    if (entry.kind === "status") state.lastStatus = entry.status;
    if (entry.kind !== "ui") continue;
    const message = entry.message;
    if (message.type === "say" && message.say === "api_req_started") requests.set(message.id, metaOf(message, "api_req_started"));
    if (message.type === "say" && message.say === "completion_result") state.report = message.text;
  }
  state.turns = requests.size;
  for (const meta of requests.values()) {
    state.tokensIn += meta?.tokensIn ?? 0;
    state.tokensOut += meta?.tokensOut ?? 0;
    state.cost += meta?.cost ?? 0;
  }
  return state;
}

/** Writes the mirrored entries as the task's local log; returns how many lines the log has. */
export async function rebuildLocalTask(options: { dataDir: string; taskId: string; task: string; workspace: string; entries: readonly StoreLogEntry[] }): Promise<number> {
  const store = new TaskStore({ dataDir: options.dataDir });
  const writer = await store.create({ taskId: options.taskId, task: options.task, workspace: options.workspace });
  try {
    for (const entry of options.entries) writer.appendEntry(entry);
  } finally {
    await writer.close();
  }
  return options.entries.length;
}

/** The entries a resume appended to the local log past `knownLines` (its cut of the interruption's leftovers). */
export async function entriesAfter(options: { dataDir: string; taskId: string; knownLines: number }): Promise<StoreLogEntry[]> {
  const store = new TaskStore({ dataDir: options.dataDir });
  const text = await readFile(join(store.taskDir(options.taskId), "log.jsonl"), "utf8");
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  return lines.slice(options.knownLines).map((line) => JSON.parse(line) as StoreLogEntry);
}
