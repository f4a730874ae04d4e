/** What `cairn eval` reports: per case and in total, as a table and as JSON; and the comparison of two runs. */
export interface CaseResult {
  name: string;
  pass: boolean;
  /** The task's end: completed | failed | cancelled | rejected. */
  status: string;
  error?: string | undefined;
  check?: { exitCode: number | null; timedOut: boolean; output: string } | undefined;
  turns: number;
  tokensIn: number;
  tokensOut: number;
  cost: number;
  durationMs: number;
}

export interface EvalReport {
  suite: string;
  mode: "local" | "fleet";
  startedAt: string;
  /** Wall time of the whole run (cases run side by side). */
  wallMs: number;
  cases: CaseResult[];
  totals: { cases: number; passed: number; failed: number; turns: number; tokensIn: number; tokensOut: number; cost: number; durationMs: number };
}

export function totalsOf(cases: readonly CaseResult[]): EvalReport["totals"] {
  return {
    cases: cases.length,
    passed: cases.filter((entry) => entry.pass).length,
    failed: cases.filter((entry) => !entry.pass).length,
    turns: cases.reduce((sum, entry) => sum + entry.turns, 0),
    tokensIn: cases.reduce((sum, entry) => sum + entry.tokensIn, 0),
    tokensOut: cases.reduce((sum, entry) => sum + entry.tokensOut, 0),
    cost: cases.reduce((sum, entry) => sum + entry.cost, 0),
    durationMs: cases.reduce((sum, entry) => sum + entry.durationMs, 0),
  };
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;
const dollars = (cost: number): string => `$${cost.toFixed(4)}`;

export function formatReport(report: EvalReport): string {
  const rows = [
    ["CASE", "RESULT", "STATUS", "TURNS", "TOKENS", "COST", "TIME"],
    ...report.cases.map((entry) => [entry.name, entry.pass ? "pass" : "FAIL", entry.status, String(entry.turns), String(entry.tokensIn + entry.tokensOut), dollars(entry.cost), seconds(entry.durationMs)]),
  ];
  const totals = report.totals;
  rows.push([`total (${totals.cases})`, `${totals.passed} passed`, `${totals.failed} failed`, String(totals.turns), String(totals.tokensIn + totals.tokensOut), dollars(totals.cost), seconds(totals.durationMs)]);
  const failures = report.cases
    .filter((entry) => !entry.pass)
    .map((entry) => {
      const why = entry.error ?? (entry.check ? (entry.check.timedOut ? "the check timed out" : `the check exited with ${entry.check.exitCode ?? "a signal"}`) : entry.status);
      return `  ${entry.name}: ${why}`;
    });
  return `${table(rows)}\nwall time ${seconds(report.wallMs)} (${report.mode})${failures.length > 0 ? `\nfailed:\n${failures.join("\n")}` : ""}\n`;
}

export interface CaseChange {
  name: string;
  change: "fixed" | "broken" | "still passing" | "still failing" | "added" | "removed";
  turns: number;
  tokens: number;
  cost: number;
  durationMs: number;
}

export interface Comparison {
  cases: CaseChange[];
  totals: { passed: number; turns: number; tokens: number; cost: number; durationMs: number };
}

/** B against A: what passes now that did not, what broke, and the deltas. */
export function compareReports(before: EvalReport, after: EvalReport): Comparison {
  const byName = new Map(before.cases.map((entry) => [entry.name, entry]));
  const changes: CaseChange[] = [];
  for (const entry of after.cases) {
    const old = byName.get(entry.name);
    byName.delete(entry.name);
    const tokens = entry.tokensIn + entry.tokensOut;
    if (!old) {
      changes.push({ name: entry.name, change: "added", turns: entry.turns, tokens, cost: entry.cost, durationMs: entry.durationMs });
      continue;
    }
    const change = old.pass === entry.pass ? (entry.pass ? "still passing" : "still failing") : entry.pass ? "fixed" : "broken";
    changes.push({ name: entry.name, change, turns: entry.turns - old.turns, tokens: tokens - (old.tokensIn + old.tokensOut), cost: entry.cost - old.cost, durationMs: entry.durationMs - old.durationMs });
  }
  for (const old of byName.values()) changes.push({ name: old.name, change: "removed", turns: -old.turns, tokens: -(old.tokensIn + old.tokensOut), cost: -old.cost, durationMs: -old.durationMs });
  return {
    cases: changes,
    totals: {
      passed: after.totals.passed - before.totals.passed,
      turns: after.totals.turns - before.totals.turns,
      tokens: after.totals.tokensIn + after.totals.tokensOut - (before.totals.tokensIn + before.totals.tokensOut),
      cost: after.totals.cost - before.totals.cost,
      durationMs: after.totals.durationMs - before.totals.durationMs,
    },
  };
}

const signed = (value: number, format: (value: number) => string = String): string => (value > 0 ? `+${format(value)}` : value < 0 ? `-${format(-value)}` : "0");

export function formatComparison(comparison: Comparison): string {
  const rows = [
    ["CASE", "CHANGE", "TURNS", "TOKENS", "COST", "TIME"],
    ...comparison.cases.map((entry) => [entry.name, entry.change, signed(entry.turns), signed(entry.tokens), signed(entry.cost, dollars), signed(entry.durationMs, seconds)]),
  ];
  const totals = comparison.totals;
  rows.push(["total", `${signed(totals.passed)} passing`, signed(totals.turns), signed(totals.tokens), signed(totals.cost, dollars), signed(totals.durationMs, seconds)]);
  return `${table(rows)}\n`;
}
