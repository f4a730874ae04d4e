import { jsonFormatVersion } from "../ui/headless/json-events.js";
import { subagentsPart } from "../session/task-spending.js";
import type { JudgeTotals } from "../tools/auto-mode/judge-contract.js";
import type { RunSummary } from "../session/run-summary.js";

export type { RunSummary } from "../session/run-summary.js";

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
    ...(summary.autoMode === undefined ? [] : [autoModePart(summary.autoMode)]),
    ...(summary.refused === 0 ? [] : [`${summary.refused} refused`]),
    `${(summary.durationMs / 1000).toFixed(1)} s`,
  ].join(" · ");
}

/** `auto mode 4 judged (3 allowed, 1 asked) 2,310 tokens $0.0012`: the judge's own line, apart from the task's totals. */
export function autoModePart(totals: JudgeTotals): string {
  const counts = [
    ["allowed", totals.allowed],
    ["asked", totals.asked],
    ["denied", totals.denied],
    ["failed", totals.failed],
  ]
    .filter(([, count]) => count !== 0)
    .map(([name, count]) => `${count} ${name}`);
  const tokens = (totals.tokensIn + totals.tokensOut).toLocaleString("en-US");
  return `auto mode ${totals.judged} judged${counts.length === 0 ? "" : ` (${counts.join(", ")})`} ${tokens} tokens $${totals.cost.toFixed(4)}`;
}
