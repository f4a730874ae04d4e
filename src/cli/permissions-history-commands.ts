/**
 * `cairn permissions suggest` and `cairn permissions replay` (issue 30): rules
 * learned from past tasks, and what a rule set would have done over them.
 * Nothing is written without a yes.
 */
import { createInterface } from "node:readline/promises";
import type { Command } from "commander";
import type { ResolvedSettings } from "../config/index.js";
import type { PastTasks } from "./permissions/past-actions.js";
import type { RuleSuggestion } from "./permissions/rule-suggestions.js";
import type { ReplayedAction, ReplayTotals } from "./permissions/policy-replay.js";
import { flagHidden } from "../security/display-text.js";

export interface HistoryFlags {
  tasks?: string;
  json?: boolean;
  yes?: boolean;
  project?: boolean;
  min?: string;
  rules?: string;
}

function count(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new UsageError(`${name} takes a whole number of 1 or more (got ${value})`);
  return parsed;
}

export class UsageError extends Error {}

async function pastActions(settings: ResolvedSettings, flags: HistoryFlags): Promise<PastTasks> {
  const [{ TaskStore }, { readPastActions }] = await Promise.all([import("../store/task-store.js"), import("./permissions/past-actions.js")]);
  return readPastActions(new TaskStore({ dataDir: settings.dataDir }), { workspace: settings.cwd, limit: count(flags.tasks, 50, "--tasks") });
}

export async function runSuggest(settings: ResolvedSettings, flags: HistoryFlags): Promise<number> {
  const { suggestRules } = await import("./permissions/rule-suggestions.js");
  const past = await pastActions(settings, flags);
  const suggestions = await suggestRules({ settings, actions: past.actions, minimum: count(flags.min, 2, "--min") });
  const file = flags.project === true ? settings.projectConfigPath : settings.userConfigPath;
  const write = async (): Promise<void> => {
    const { addAllowRule } = await import("../security/rule-store.js");
    for (const suggestion of suggestions) await addAllowRule(file, suggestion.rule);
  };
  if (flags.json === true) {
    if (flags.yes === true && suggestions.length > 0) await write();
    process.stdout.write(`${JSON.stringify({ tasks: past.tasks, actions: past.actions.length, suggestions, file, written: flags.yes === true && suggestions.length > 0 })}\n`);
    return 0;
  }
  process.stdout.write(`${describeSuggestions(suggestions, past)}\n`);
  if (suggestions.length === 0) return 0;
  const yes = flags.yes === true || (await confirm(`Add ${suggestions.length === 1 ? "this rule" : `these ${suggestions.length} rules`} to ${file}? [y/N] `));
  if (!yes) {
    process.stdout.write(`Nothing was written${process.stdin.isTTY === true ? "" : " (run again with --yes to save them)"}.\n`);
    return 0;
  }
  await write();
  process.stdout.write(`Saved in ${file}.\n`);
  return 0;
}

function describeSuggestions(suggestions: RuleSuggestion[], past: PastTasks): string {
  const head = `From ${past.tasks} task${past.tasks === 1 ? "" : "s"} of this folder (${past.actions.length} actions):`;
  if (suggestions.length === 0) return `${head} no rule would have saved enough asks; nothing to suggest.`;
  const lines = [head];
  for (const suggestion of suggestions) {
    lines.push(`  allow ${suggestion.rule}: would have saved ${suggestion.savedAsks} ask${suggestion.savedAsks === 1 ? "" : "s"} in ${suggestion.tasks} task${suggestion.tasks === 1 ? "" : "s"}`);
    if (suggestion.refusedButAllowed.length === 0) lines.push("    and allowed nothing you refused");
    for (const refused of suggestion.refusedButAllowed) lines.push(`    ! would also have allowed what you refused: ${shown(refused.text)} (${refused.tool}, task ${refused.taskId})`);
  }
  return lines.join("\n");
}

async function confirm(question: string): Promise<boolean> {
  if (process.stdin.isTTY !== true) return false;
  const reader = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await reader.question(question)).trim());
  } finally {
    reader.close();
  }
}

export async function runReplay(settings: ResolvedSettings, flags: HistoryFlags): Promise<number> {
  if (flags.rules === undefined) throw new UsageError("replay needs --rules FILE (a settings file, or a JSON object with allow, ask and deny lists)");
  const { readRuleFile, replayRules, outcomeWords } = await import("./permissions/policy-replay.js");
  const rules = await readRuleFile(flags.rules).catch((error: unknown) => {
    throw new UsageError(`--rules ${flags.rules ?? ""}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const past = await pastActions(settings, flags);
  const { actions, totals } = await replayRules({ settings, rules, actions: past.actions });
  if (flags.json === true) {
    process.stdout.write(`${JSON.stringify({ tasks: past.tasks, rules: rules.map((rule) => ({ decision: rule.decision, rule: rule.text })), actions, totals })}\n`);
    return 0;
  }
  const lines: string[] = [];
  let task: string | undefined;
  for (const action of actions) {
    if (action.taskId !== task) {
      task = action.taskId;
      lines.push(`task ${task}`);
    }
    lines.push(`  ${action.changed ? "*" : " "} ${action.replayed.padEnd(5)} ${shown(action.text)}  (${action.tool}; ${outcomeWords[action.happened]})`);
  }
  lines.push("", replaySummary(totals, past.tasks));
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

function replaySummary(totals: ReplayTotals, tasks: number): string {
  return [
    `${totals.actions} actions of ${tasks} task${tasks === 1 ? "" : "s"}: ${totals.allow} allowed, ${totals.ask} asked, ${totals.deny} denied under these rules;`,
    `${totals.changed} decided otherwise than what happened (marked *): ${totals.asksSaved} asks saved, ${totals.refusedButAllowed} allowed that you refused, ${totals.ranButStopped} that ran would have been stopped.`,
  ].join(" ");
}

/** A past command or path as text, its hidden characters shown escaped. */
function shown(text: string): string {
  return flagHidden(text).text.replace(/\n/g, "\\n");
}

export type { ReplayedAction };

export function registerHistoryCommands(permissions: Command, options: { withOptions: (command: Command) => Command; resolve: (flags: HistoryFlags) => Promise<ResolvedSettings | number> }): void {
  const run = (action: (settings: ResolvedSettings, flags: HistoryFlags) => Promise<number>) => async (_options: unknown, command: Command) => {
    const flags = command.optsWithGlobals<HistoryFlags>();
    const settings = await options.resolve(flags);
    if (typeof settings === "number") {
      process.exitCode = settings;
      return;
    }
    try {
      process.exitCode = await action(settings, flags);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      process.stderr.write(`cairn: ${error.message}\n`);
      process.exitCode = 2;
    }
  };
  options
    .withOptions(permissions.command("suggest").description("propose allow rules for what you approved by hand again and again (nothing is written without a yes)"))
    .option("--tasks <n>", "read this folder's last N tasks (default 50)")
    .option("--min <n>", "propose a rule only when it would have saved this many asks (default 2)")
    .option("--project", "save in the project's .cairn/config.json instead of your config")
    .action(run(runSuggest));
  options
    .withOptions(permissions.command("replay").description("show what a rule set would have decided for every action of past tasks, against what happened"))
    .requiredOption("--rules <file>", "the rules: a settings file, or {allow, ask, deny}")
    .option("--tasks <n>", "replay this folder's last N tasks (default 50)")
    .action(run(runReplay));
}
