/**
 * Command-line habits users bring from other agents (issue #12): `cairn -p
 * "task"` (print mode, as `cairn run`), `cairn -c` (continue this folder's
 * latest task), `cairn --resume [id]` (a picker of this folder's tasks when no
 * id is given), `cairn run -` (the task from standard input), and piped input
 * as the task or its context in print mode (src/cli/piped-input.ts).
 */
import { environmentWithSecrets } from "../security/secret-environment.js";
import type { Command } from "commander";
import { createInterface } from "node:readline/promises";
import type { TaskSummary } from "../store/types.js";
import { describeAge } from "./slash-session.js";
import type { TaskCommandOptions } from "./run-command.js";

export interface HabitFlags {
  print?: boolean;
  continue?: boolean;
  resume?: string | boolean;
}

export function addHabitOptions(command: Command): Command {
  return command
    .option("-p, --print", "print mode: run the task headless to its end (the same as cairn run)")
    .option("-c, --continue", "continue the latest task of this folder")
    .option("--resume [id]", "continue a task of this folder (without an id: pick one from a list)");
}

/** Tasks the `--resume` picker offers. */
const pickerRows = 20;

async function folderTasks(flags: TaskCommandOptions): Promise<TaskSummary[]> {
  const { resolveSettings } = await import("../config/index.js");
  const settings = await resolveSettings({ flags, env: environmentWithSecrets(), cwd: process.cwd(), trust: false });
  const { TaskStore } = await import("../store/task-store.js");
  // The picker lists the newest 20 (-c takes the first): read from the end of the history index.
  const { rows } = await new TaskStore({ dataDir: settings.dataDir }).listNewest({ workspace: settings.cwd, order: "updated", limit: pickerRows });
  return rows;
}

function money(cost: number): string {
  return `$${cost.toFixed(cost < 1 ? 4 : 2)}`;
}

/** One line of the picker: title, age, status, cost. */
export function pickerLine(row: TaskSummary, index: number, now: number): string {
  const title = row.title.length > 50 ? `${row.title.slice(0, 49)}…` : row.title;
  return `${String(index + 1).padStart(2)}. ${title.padEnd(50)}  ${describeAge(now - row.updatedAt).padEnd(12)} ${row.status.padEnd(9)} ${money(row.cost)}`;
}

/** Asks which task to resume; undefined when the user gives none. */
async function pickTask(rows: TaskSummary[]): Promise<string | undefined> {
  const now = Date.now();
  process.stdout.write(
    `Tasks in this folder (newest first):\n${rows
      .slice(0, pickerRows)
      .map((row, index) => pickerLine(row, index, now))
      .join("\n")}\n`,
  );
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await prompt.question("Resume which? [1] ")).trim();
    const choice = answer === "" ? 1 : Number(answer);
    if (!Number.isInteger(choice) || choice < 1 || choice > Math.min(pickerRows, rows.length)) return undefined;
    return rows[choice - 1]?.taskId;
  } finally {
    prompt.close();
  }
}

/**
 * Runs the habit the flags ask for; undefined when none was asked (the caller
 * goes on as `cairn [task]`).
 */
export async function runHabit(words: string[], flags: TaskCommandOptions & HabitFlags): Promise<number | undefined> {
  const { runDefault, runHeadless } = await import("./run-command.js");
  const task = words.join(" ").trim();
  if (flags.continue === true || flags.resume !== undefined) {
    let taskId = typeof flags.resume === "string" ? flags.resume : undefined;
    if (taskId === undefined) {
      const rows = await folderTasks(flags);
      if (rows.length === 0) {
        process.stderr.write('cairn: no task in this folder to continue yet. Start one with: cairn "<task>"\n');
        return 2;
      }
      const onTerminal = process.stdin.isTTY === true && process.stdout.isTTY === true;
      if (flags.continue === true || !onTerminal) {
        taskId = rows[0]!.taskId;
      } else {
        taskId = await pickTask(rows);
        if (taskId === undefined) {
          process.stderr.write("cairn: no task chosen\n");
          return 2;
        }
      }
    }
    return flags.print === true ? runHeadless({ flags, start: { kind: "resume", taskId, ...(task ? { message: task } : {}) } }) : runDefault(words, flags, taskId);
  }
  if (flags.print === true) {
    // As claude -p: piped input is the task (no argument) or the task's context (with one).
    const { printModeTask, withPipedContext } = await import("./piped-input.js");
    const given = await printModeTask(task);
    if ("problem" in given) {
      process.stderr.write(`cairn: ${given.problem}\n`);
      return 2;
    }
    const { expandTaskMentions } = await import("./mentions.js");
    const expanded = await expandTaskMentions(given.task, flags.cwd);
    return runHeadless({ flags, start: { kind: "new", task: given.context === undefined ? expanded : withPipedContext(expanded, given.context) } });
  }
  return undefined;
}
