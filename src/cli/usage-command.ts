/**
 * `cairn usage [--since 7d] [--by day|model|project|task] [--json]` (issue #36):
 * what the tasks of the data folder used, in total and per group, with a bar
 * chart of the cost. Read from the history index (src/store/usage-report.ts).
 */
import { InvalidArgumentError, type Command } from "commander";
import { resolve as resolvePath } from "node:path";
import { colors as pc } from "./colors.js";
import type { UsageGroup, UsageGrouping, UsageReport, UsageTotals } from "../store/usage-report.js";
import { neutralizeControls, escapeControlsInJson } from "../ui/terminal-controls.js";

export interface UsageCommandContext {
  dataDir(): string;
}

const groupings: readonly UsageGrouping[] = ["day", "model", "project", "task"];

function parseGrouping(value: string): UsageGrouping {
  const grouping = groupings.find((name) => name === value);
  if (grouping === undefined) throw new InvalidArgumentError(`give one of ${groupings.join(", ")}`);
  return grouping;
}

const number = (value: number): string => Math.round(value).toLocaleString("en-US");
const money = (cost: number): string => `$${cost.toFixed(cost < 10 ? 4 : 2)}`;

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A bar of `width` cells for `value` out of `max`, in eighths of a cell. */
export function bar(value: number, max: number, width = 24): string {
  if (max <= 0 || value <= 0) return "";
  const eighths = Math.max(1, Math.round((value / max) * width * 8));
  return "█".repeat(Math.floor(eighths / 8)) + (eighths % 8 === 0 ? "" : (["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8] ?? ""));
}

function totalsLine(total: UsageTotals): string {
  const cache = total.cachedTokens > 0 ? ` · ${number(total.cachedTokens)} cached (${number(total.cacheHits)} cache hits)` : "";
  return (
    `${number(total.tasks)} task${total.tasks === 1 ? "" : "s"} · ${number(total.tokensIn)} tokens in · ${number(total.tokensOut)} out${cache} · ` +
    `${money(total.cost)} · ${number(total.requests)} requests · ${number(total.toolCalls)} tool calls · ${formatDuration(total.activeMs)} active`
  );
}

function groupLabel(group: UsageGroup, by: UsageGrouping): string {
  const label = by === "task" && group.title !== undefined ? `${group.key} ${group.title}` : group.key;
  return neutralizeControls(label.length > 60 ? `${label.slice(0, 59)}…` : label);
}

function groupTable(report: UsageReport, by: UsageGrouping): string {
  if (report.groups.length === 0) return "";
  const max = Math.max(...report.groups.map((group) => group.cost));
  const header = [by.toUpperCase(), "TASKS", "TOKENS IN", "OUT", "CACHED", "REQUESTS", "TOOLS", "ACTIVE", "COST", ""];
  const lines = report.groups.map((group) => [
    groupLabel(group, by),
    number(group.tasks),
    number(group.tokensIn),
    number(group.tokensOut),
    number(group.cachedTokens),
    number(group.requests),
    number(group.toolCalls),
    formatDuration(group.activeMs),
    money(group.cost),
    pc.cyan(bar(group.cost, max)),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => (column === header.length - 1 ? 0 : line[column]!.length))));
  const numeric = (column: number): boolean => column > 0 && column < header.length - 1;
  const render = (cells: string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : numeric(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join("  ")
      .trimEnd();
  return `\n${pc.bold(render(header))}\n${lines.map(render).join("\n")}\n`;
}

export function formatUsage(report: UsageReport, now: number): string {
  const window = report.since === undefined ? "All tasks" : `Since ${new Date(report.since).toISOString().slice(0, 16).replace("T", " ")} UTC (${formatDuration(now - report.since)})`;
  const older =
    report.tasksWithoutCounts > 0 ? `\n${pc.dim(`${report.tasksWithoutCounts} task(s) were recorded by an earlier version: their tokens and cost are counted, their requests, cache, tool calls and time are not.`)}` : "";
  return `${window}: ${totalsLine(report.total)}\n${report.by === undefined ? "" : groupTable(report, report.by)}${older}${older === "" ? "" : "\n"}`;
}

export function registerUsageCommand(program: Command, context: UsageCommandContext): void {
  program
    .command("usage")
    .description("what tasks used: tokens, cache, cost, requests, tool calls, time (totals across tasks)")
    .option("--since <when>", "only tasks started since then: 7d, 24h, 2w, or a date (2026-12-01)")
    .option("--by <group>", `one line per ${groupings.join(", ")}`, parseGrouping)
    .option("--json", "print the report as JSON")
    .option("--data-dir <dir>", "where tasks are kept (default $CAIRN_HOME or ~/.cairn)")
    .action(async (flags: { since?: string; by?: UsageGrouping; json?: boolean; dataDir?: string }) => {
      const now = Date.now();
      const { parseSince, usageReport } = await import("../store/usage-report.js");
      const since = flags.since === undefined ? undefined : parseSince(flags.since, now);
      if (flags.since !== undefined && since === undefined) {
        process.stderr.write(`cairn usage: --since ${flags.since} is neither a span (7d, 24h, 30m, 2w) nor a date (2026-12-01)\n`);
        process.exitCode = 2;
        return;
      }
      const { TaskStore } = await import("../store/task-store.js");
      const store = new TaskStore({ dataDir: flags.dataDir === undefined ? context.dataDir() : resolvePath(flags.dataDir) });
      const report = usageReport(await store.list(), { ...(since === undefined ? {} : { since }), ...(flags.by === undefined ? {} : { by: flags.by }) });
      process.stdout.write(flags.json === true ? `${escapeControlsInJson(JSON.stringify(report, null, 2))}\n` : formatUsage(report, now));
    });
}
