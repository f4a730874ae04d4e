import type { TaskResult } from "../task/task.js";
import { jsonFormatVersion } from "../ui/headless/json-events.js";
import { subagentsPart } from "../session/task-spending.js";

/** What the task's subagents spent: part of the summary's totals, said apart. */
export interface SubagentSummary {
  count: number;
  tokensIn: number;
  tokensOut: number;
  cost: number;
}

/** What `cairn run` reports when the task ends (#11): the last line of its output. */
export interface RunSummary {
  taskId: string;
  status: TaskResult["status"];
  exitStatus: number;
  /** Requests to the model in this run (the parent's own). */
  turns: number;
  /** Totals of the whole task, across resumes, its subagents' included. */
  tokensIn: number;
  tokensOut: number;
  cost: number;
  /** Actions of this run that did not run because they were refused (see `RefusalCounter`). */
  refused: number;
  /** The subagents' part of the totals, when the task had any. */
  subagents?: SubagentSummary;
  durationMs: number;
  error?: string;
}

/** One JSON line, `{"v":2,"type":"result",...}`, the last line of `--json` output (docs/json-events.md). */
export function resultLine(summary: RunSummary): string {
  return JSON.stringify({ v: jsonFormatVersion, type: "result", ...summary });
}

/** `completed · 3 turns · 12,040 tokens in · 800 out · $0.0481 · 2 subagents $0.0123 · 1 refused · 12.3 s` */
export function summaryLine(summary: RunSummary): string {
  const count = (value: number): string => value.toLocaleString("en-US");
  const subagents = summary.subagents === undefined ? undefined : subagentsPart(summary.subagents);
  return [
    summary.status,
    `${summary.turns} turn${summary.turns === 1 ? "" : "s"}`,
    `${count(summary.tokensIn)} tokens in`,
    `${count(summary.tokensOut)} out`,
    `$${summary.cost.toFixed(4)}`,
    ...(subagents === undefined ? [] : [subagents]),
    ...(summary.refused === 0 ? [] : [`${summary.refused} refused`]),
    `${(summary.durationMs / 1000).toFixed(1)} s`,
  ].join(" · ");
}
