/**
 * `cairn usage` (issue #36): totals across a data folder's tasks, from the rows
 * of the history index (task-list.ts), never from the logs, so a report over
 * 10,000 tasks costs one read of the index. A subagent's row counts once, as its
 * own task; `--by task` folds it into its parent's line.
 */
import type { TaskSummary } from "./types.js";

export type UsageGrouping = "day" | "model" | "project" | "task";

export interface UsageTotals {
  tasks: number;
  tokensIn: number;
  tokensOut: number;
  cachedTokens: number;
  cacheHits: number;
  cost: number;
  activeMs: number;
  requests: number;
  toolCalls: number;
}

export interface UsageGroup extends UsageTotals {
  /** The day (YYYY-MM-DD, local time), model, workspace or task id. */
  key: string;
  /** For `--by task`: the task's first words. */
  title?: string;
}

export interface UsageReport {
  /** Tasks started since this time (ms) are counted; undefined: all. */
  since?: number;
  by?: UsageGrouping;
  total: UsageTotals;
  groups: UsageGroup[];
  /** Rows written by earlier versions, without requests, cache, tool call and time counts. */
  tasksWithoutCounts: number;
}

const zero = (): UsageTotals => ({ tasks: 0, tokensIn: 0, tokensOut: 0, cachedTokens: 0, cacheHits: 0, cost: 0, activeMs: 0, requests: 0, toolCalls: 0 });

function add(totals: UsageTotals, row: TaskSummary, countsAsTask: boolean): void {
  totals.tasks += countsAsTask ? 1 : 0;
  totals.tokensIn += row.tokensIn;
  totals.tokensOut += row.tokensOut;
  totals.cost += row.cost;
  const usage = row.usage;
  if (usage === undefined) return;
  totals.cachedTokens += usage.cachedTokens;
  totals.cacheHits += usage.cacheHits;
  totals.activeMs += usage.activeMs;
  totals.requests += usage.requests;
  totals.toolCalls += usage.toolCalls;
}

export function localDay(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number): string => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function keyOf(row: TaskSummary, by: UsageGrouping): string {
  switch (by) {
    case "day":
      return localDay(row.createdAt);
    case "model":
      return row.model ?? "unknown";
    case "project":
      return row.workspace;
    case "task":
      return row.parentTaskId ?? row.taskId;
  }
}

/** Totals of the tasks started since `since`, and per group with `by`. */
export function usageReport(rows: readonly TaskSummary[], options: { since?: number; by?: UsageGrouping } = {}): UsageReport {
  const total = zero();
  const groups = new Map<string, UsageGroup>();
  let tasksWithoutCounts = 0;
  const titles = new Map(rows.map((row) => [row.taskId, row.title]));
  for (const row of rows) {
    if (options.since !== undefined && row.createdAt < options.since) continue;
    // A subagent is a task of its own, except in a per-task report, where it is part of its parent.
    const countsAsTask = options.by !== "task" || row.parentTaskId === undefined;
    add(total, row, true);
    if (row.usage === undefined) tasksWithoutCounts += 1;
    if (options.by === undefined) continue;
    const key = keyOf(row, options.by);
    let group = groups.get(key);
    if (group === undefined) {
      const title = options.by === "task" ? titles.get(key) : undefined;
      group = { key, ...zero(), ...(title === undefined ? {} : { title }) };
      groups.set(key, group);
    }
    add(group, row, countsAsTask);
  }
  const ordered = [...groups.values()];
  if (options.by === "day") ordered.sort((left, right) => left.key.localeCompare(right.key));
  else ordered.sort((left, right) => right.cost - left.cost || right.tokensIn + right.tokensOut - (left.tokensIn + left.tokensOut) || left.key.localeCompare(right.key));
  return {
    ...(options.since === undefined ? {} : { since: options.since }),
    ...(options.by === undefined ? {} : { by: options.by }),
    total,
    groups: ordered,
    tasksWithoutCounts,
  };
}

/** `7d`, `24h`, `30m`, `2w` before `now`, or a date (`2026-12-01`); undefined when it is neither. */
export function parseSince(text: string, now: number): number | undefined {
  const relative = /^(\d+(?:\.\d+)?)\s*([mhdw])$/i.exec(text.trim());
  if (relative !== null) {
    const unitMs = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[relative[2]!.toLowerCase() as "m" | "h" | "d" | "w"];
    return now - Number(relative[1]) * unitMs;
  }
  // A bare date is the start of that day in local time, as `--by day` shows days.
  const date = /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? new Date(`${text.trim()}T00:00:00`) : new Date(text);
  return Number.isFinite(date.getTime()) ? date.getTime() : undefined;
}
