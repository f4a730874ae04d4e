import { cardMetaOf, type ApiRequestMeta } from "../task/contracts/message-meta.js";
import { toolEnding } from "../task/contracts/tool-ending.js";
import { InvalidArgumentError, type Command } from "commander";
import { resolve as resolvePath } from "node:path";
import { colors as pc } from "./colors.js";
import type { UiMessage } from "../task/contracts/messages.js";
import type { TaskStore } from "../store/task-store.js";
import type { TaskMeta, TaskSummary } from "../store/types.js";
import { escapeControlsInJson, neutralizeControls } from "../ui/terminal-controls.js";
import type { Totals } from "../session/subagents/subagent-spending.js";
import { subagentsPart } from "../session/task-spending.js";

export interface HistoryCommandContext {
  /** The data folder (`--data-dir`, `CAIRN_HOME` or ~/.cairn), resolved by the caller. */
  dataDir(): string;
}

const dataDirHelp = "where tasks are kept (default $CAIRN_HOME or ~/.cairn)";

function dataDirOf(context: HistoryCommandContext, flags: { dataDir?: string }): string {
  return flags.dataDir === undefined ? context.dataDir() : resolvePath(flags.dataDir);
}

function write(text: string): void {
  process.stdout.write(text);
}

export function formatTime(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function formatCost(cost: number): string {
  return `$${cost.toFixed(cost < 1 ? 4 : 2)}`;
}

/** A task's totals with its subagents' (each child's whole spending, from its own log), and their part in words. */
function wholeTask(own: Totals, subagents: ReadonlyArray<Totals>): Totals & { subagents: string | undefined } {
  const children = subagents.reduce((sum, child) => ({ tokensIn: sum.tokensIn + child.tokensIn, tokensOut: sum.tokensOut + child.tokensOut, cost: sum.cost + child.cost }), { tokensIn: 0, tokensOut: 0, cost: 0 });
  return {
    tokensIn: own.tokensIn + children.tokensIn,
    tokensOut: own.tokensOut + children.tokensOut,
    cost: own.cost + children.cost,
    subagents: subagentsPart({ count: subagents.length, cost: children.cost }),
  };
}

function formatTokens(count: number): string {
  return count >= 10_000 ? `${Math.round(count / 1000)}k` : String(count);
}

function historyTable(rows: TaskSummary[]): string {
  if (rows.length === 0) return 'No tasks yet. Start one with `cairn run "<task>"`.\n';
  const lines = rows.map((row) => [
    row.taskId,
    row.status,
    formatTime(row.updatedAt),
    `${formatTokens(row.tokensIn)}/${formatTokens(row.tokensOut)}`,
    formatCost(row.cost),
    // A title is the task's text: it may hold escape sequences (src/ui/terminal-controls.ts).
    `${row.forkedFrom === undefined ? "" : `⑂ fork of ${row.forkedFrom}: `}${neutralizeControls(row.title)}`,
  ]);
  const header = ["ID", "STATUS", "UPDATED", "TOKENS IN/OUT", "COST", "TASK"];
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const render = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ");
  return `${pc.bold(render(header))}\n${lines.map(render).join("\n")}\n`;
}

/** Rows `cairn history` prints without `--limit` or `--all`. */
export const defaultHistoryLimit = 50;

function parseLimit(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1) throw new InvalidArgumentError("give a whole number of tasks, 1 or more");
  return limit;
}

/** "9,950 older tasks not shown (cairn history --all, or --limit N)", or undefined when none was left out. */
function olderNotShown(count: number): string | undefined {
  if (count <= 0) return undefined;
  return `${count.toLocaleString("en-US")} older task${count === 1 ? "" : "s"} not shown (cairn history --all, or --limit N)`;
}

function messageLabel(message: UiMessage): string {
  return message.type === "say" ? message.say : `ask:${message.ask}`;
}

/** One task's messages, the way a person reads a transcript. */
/** A request's line: what it cost, or why it stopped (its message is written to the log when it ends). */
function requestText(message: UiMessage): string {
  if (message.type !== "say" || message.say !== "api_req_started" || message.meta === undefined) return message.text;
  const meta = message.meta as ApiRequestMeta;
  const spent = `${meta.tokensIn} tokens in, ${meta.tokensOut} out, ${formatCost(meta.cost)}`;
  return meta.cancelReason === undefined ? spent : `${spent} (${meta.cancelReason.replace(/_/g, " ")}${meta.error === undefined ? "" : `: ${meta.error}`})`;
}

export function formatTranscript(messages: UiMessage[]): string {
  const width = Math.max(4, ...messages.map((message) => messageLabel(message).length));
  // In the order things happened: a request's message reaches the log when the request ends, after its answer.
  return [...messages]
    .sort((left, right) => left.ts - right.ts)
    .map((message) => {
      const time = new Date(message.ts).toTimeString().slice(0, 8);
      // What the model and commands wrote, without escape sequences a terminal would obey.
      const [first = "", ...rest] = neutralizeControls(requestText(message)).split("\n");
      const indent = " ".repeat(8 + 2 + width + 2);
      // How a tool call ended: a failure or refusal with its reason, a command's exit status (escape sequences neutralized).
      const ending = toolEnding(cardMetaOf(message));
      const endingText = ending === undefined ? "" : neutralizeControls(ending.text);
      const suffix = ending === undefined ? "" : ending.ok ? `  → ${endingText}` : `  ✗ ${endingText}`;
      const body = [first + suffix, ...rest.map((line) => `${indent}${line}`)].join("\n");
      return `${pc.dim(time)}  ${pc.bold(messageLabel(message).padEnd(width))}  ${body}`;
    })
    .join("\n");
}

/** A task's place in its family (docs/sessions.md): the task it was forked from, and its own forks. */
async function familyLines(store: TaskStore, meta: TaskMeta): Promise<string> {
  const source = meta.forkedFrom;
  const from = source === undefined ? "" : `Forked from ${source.taskId}${source.at === undefined ? "" : ` (before message ${source.at})`}\n`;
  const forks = (await store.list()).filter((row) => row.forkedFrom === meta.taskId).map((row) => row.taskId);
  return from + (forks.length === 0 ? "" : `Forks: ${forks.join(", ")}\n`);
}

/** `cairn history [--json]` and `cairn show <id> [--json]`. */
export function registerHistoryCommands(program: Command, context: HistoryCommandContext): void {
  program
    .command("history")
    .description("list past tasks (newest first)")
    .option("--json", "print the list as JSON")
    .option("--limit <n>", `print the newest n tasks (default ${defaultHistoryLimit})`, parseLimit)
    .option("--all", "print every task")
    .option("--data-dir <dir>", dataDirHelp)
    .action(async (flags: { json?: boolean; limit?: number; all?: boolean; dataDir?: string }) => {
      const { TaskStore } = await import("../store/task-store.js");
      const store = new TaskStore({ dataDir: dataDirOf(context, flags) });
      // Newest first, as /history, the --resume picker and `cairn checkpoints` list theirs.
      const { rows, total } = flags.all === true ? await store.list().then((all) => ({ rows: all.reverse(), total: all.length })) : await store.listNewest({ limit: flags.limit ?? defaultHistoryLimit });
      const notShown = olderNotShown(total - rows.length);
      if (flags.json === true) {
        write(`${escapeControlsInJson(JSON.stringify(rows, null, 2))}\n`);
        // Standard output stays one JSON array; what was left out is said beside it.
        if (notShown !== undefined) process.stderr.write(`cairn: ${notShown}\n`);
        return;
      }
      write(historyTable(rows) + (notShown === undefined ? "" : `${pc.dim(notShown)}\n`));
    });

  program
    .command("show")
    .description("print a task's messages")
    .argument("<id>", "task id (or its last part, or a prefix only it has)")
    .option("--json", "print the task as JSON (meta, messages, status)")
    .option("--data-dir <dir>", dataDirHelp)
    .action(async (input: string, flags: { json?: boolean; dataDir?: string }) => {
      const { TaskStore } = await import("../store/task-store.js");
      const store = new TaskStore({ dataDir: dataDirOf(context, flags) });
      const loaded = await store.load(await store.resolveTaskId(input));
      for (const warning of loaded.warnings) process.stderr.write(`cairn: warning: ${warning}\n`);
      const { subagentsOf, formatSubagentTree } = await import("./subagent-tree.js");
      const subagents = await subagentsOf(store, loaded);
      if (flags.json === true) {
        const { meta, uiMessages, status, tokensIn, tokensOut, cost } = loaded;
        write(`${escapeControlsInJson(JSON.stringify({ ...meta, status, tokensIn, tokensOut, cost, subagents, messages: uiMessages }, null, 2))}\n`);
        return;
      }
      const { meta } = loaded;
      // The whole task's tokens and cost: its subagents' included, and said apart.
      const whole = wholeTask(loaded, subagents);
      write(
        `${pc.bold(`Task ${meta.taskId}`)} (${loaded.status}; ${whole.tokensIn} tokens in, ${whole.tokensOut} out; ${formatCost(whole.cost)}${whole.subagents === undefined ? "" : ` · ${whole.subagents}`})\n` +
          `Workspace: ${neutralizeControls(meta.workspace)}\nStarted:   ${formatTime(meta.createdAt)}\n` +
          (await familyLines(store, meta)) +
          neutralizeControls(formatSubagentTree(loaded, subagents, formatCost)) +
          "\n" +
          (loaded.uiMessages.length === 0 ? "(no messages)\n" : `${formatTranscript(loaded.uiMessages)}\n`),
      );
    });
}
