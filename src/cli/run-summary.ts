import type { TaskResult } from "../task/task.js";
import { jsonFormatVersion } from "../ui/headless/json-events.js";

/** What `cairn run` reports when the task ends (#11): the last line of its output. */
export interface RunSummary {
  taskId: string;
  status: TaskResult["status"];
  exitStatus: number;
  /** Requests to the model in this run. */
  turns: number;
  /** Totals of the whole task, across resumes. */
  tokensIn: number;
  tokensOut: number;
  cost: number;
  durationMs: number;
  error?: string;
}

/** One JSON line, `{"v":2,"type":"result",...}`, the last line of `--json` output (docs/json-events.md). */
export function resultLine(summary: RunSummary): string {
  return JSON.stringify({ v: jsonFormatVersion, type: "result", ...summary });
}

/** `completed · 3 turns · 12,040 tokens in · 800 out · $0.0481 · 12.3 s` */
export function summaryLine(summary: RunSummary): string {
  const count = (value: number): string => value.toLocaleString("en-US");
  return [
    summary.status,
    `${summary.turns} turn${summary.turns === 1 ? "" : "s"}`,
    `${count(summary.tokensIn)} tokens in`,
    `${count(summary.tokensOut)} out`,
    `$${summary.cost.toFixed(4)}`,
    `${(summary.durationMs / 1000).toFixed(1)} s`,
  ].join(" · ");
}
