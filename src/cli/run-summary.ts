import { jsonFormatVersion } from "../ui/headless/json-events.js";
import { subagentsPart } from "../session/task-spending.js";
import type { RunSummary } from "../session/run-summary.js";

export type { RunSummary } from "../session/run-summary.js";

/** One JSON line, `{"v":2,"type":"result",...}`, the last line of `--json` output (docs/json-events.md). */
export function resultLine(summary: RunSummary): string {
  return JSON.stringify({ v: jsonFormatVersion, type: "result", ...summary });
}

function endedProcessesPart(processes: RunSummary["processes"]): string[] {
  const ended = processes?.filter((process) => process.endedAtExit).length ?? 0;
  return ended === 0 ? [] : [`${ended} background process${ended === 1 ? "" : "es"} ended`];
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
    ...endedProcessesPart(summary.processes),
    `${(summary.durationMs / 1000).toFixed(1)} s`,
  ].join(" · ");
}
