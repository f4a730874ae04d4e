/** The task checklist (`checklist` message, meta `items`) as an ACP plan: done steps completed, the next one in progress. */
import type { PlanEntry } from "@agentclientprotocol/sdk";
import type { ChecklistMeta } from "../task/contracts/message-meta.js";

export function planEntries(meta: ChecklistMeta | undefined): PlanEntry[] {
  const entries: PlanEntry[] = [];
  let nextFound = false;
  for (const { text, done } of meta?.items ?? []) {
    const status = done ? "completed" : nextFound ? "pending" : "in_progress";
    if (!done) nextFound = true;
    entries.push({ content: text, priority: "medium", status });
  }
  return entries;
}
