/** The task checklist (`checklist` message, meta `items`) as an ACP plan: done steps completed, the next one in progress. */
import type { PlanEntry } from "@agentclientprotocol/sdk";

export function planEntries(meta: Record<string, unknown> | undefined): PlanEntry[] {
  const items = meta?.["items"];
  if (!Array.isArray(items)) return [];
  const entries: PlanEntry[] = [];
  let nextFound = false;
  for (const item of items) {
    if (typeof item !== "object" || item === null) continue;
    const text = (item as { text?: unknown }).text;
    const done = (item as { done?: unknown }).done === true;
    if (typeof text !== "string") continue;
    const status = done ? "completed" : nextFound ? "pending" : "in_progress";
    if (!done) nextFound = true;
    entries.push({ content: text, priority: "medium", status });
  }
  return entries;
}
