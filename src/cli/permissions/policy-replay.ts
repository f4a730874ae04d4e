/**
 * `cairn permissions replay --rules FILE`: what a rule set would have decided
 * for every action of past tasks, beside what happened, so a policy change can
 * be reviewed before it is adopted.
 */
import { readFile } from "node:fs/promises";
import type { ResolvedSettings } from "../../config/index.js";
import { parseRule, type PermissionRule } from "../../security/permission-rules.js";
import type { PastAction, PastOutcome } from "./past-actions.js";
import { RuleSetJudge, type ReplayedDecision } from "./replayed-decisions.js";

export interface ReplayedAction {
  taskId: string;
  tool: string;
  text: string;
  happened: PastOutcome;
  replayed: ReplayedDecision;
  /** The rule set would have decided otherwise than what happened. */
  changed: boolean;
}

export interface ReplayTotals {
  actions: number;
  allow: number;
  ask: number;
  deny: number;
  changed: number;
  /** Asks answered by hand that the rules would have answered. */
  asksSaved: number;
  /** Actions the user refused when asked that the rules would have allowed. */
  refusedButAllowed: number;
  /** Actions that ran (by themselves or approved) that the rules would have asked about or denied. */
  ranButStopped: number;
}

/** The rules of a file: a settings file's `permissions` block, or `{allow, ask, deny}` itself. */
export async function readRuleFile(file: string): Promise<PermissionRule[]> {
  const parsed = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
  const block = (typeof parsed["permissions"] === "object" && parsed["permissions"] !== null ? parsed["permissions"] : parsed) as Record<string, unknown>;
  const rules: PermissionRule[] = [];
  for (const decision of ["allow", "ask", "deny"] as const) {
    const list = block[decision];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.some((entry) => typeof entry !== "string")) throw new Error(`${file}: permissions.${decision} must be a list of rules`);
    for (const text of list as string[]) rules.push(parseRule(text, decision, file));
  }
  return rules;
}

export async function replayRules(options: { settings: ResolvedSettings; rules: readonly PermissionRule[]; actions: readonly PastAction[] }): Promise<{ actions: ReplayedAction[]; totals: ReplayTotals }> {
  const judge = new RuleSetJudge(options.settings, options.rules);
  const actions: ReplayedAction[] = [];
  const totals: ReplayTotals = { actions: 0, allow: 0, ask: 0, deny: 0, changed: 0, asksSaved: 0, refusedButAllowed: 0, ranButStopped: 0 };
  for (const action of options.actions) {
    const replayed = await judge.decide(action);
    const changed = !same(action.outcome, replayed);
    actions.push({ taskId: action.taskId, tool: action.tool, text: action.text, happened: action.outcome, replayed, changed });
    totals.actions += 1;
    totals[replayed] += 1;
    if (changed) totals.changed += 1;
    if (action.outcome === "approved" && replayed === "allow") totals.asksSaved += 1;
    if (action.outcome === "refused-by-you" && replayed === "allow") totals.refusedButAllowed += 1;
    if ((action.outcome === "auto" || action.outcome === "approved") && replayed !== "allow" && !(action.outcome === "approved" && replayed === "ask")) totals.ranButStopped += 1;
  }
  return { actions, totals };
}

/** Whether the replayed decision is what happened: an ask is an ask, however it was answered. */
function same(happened: PastOutcome, replayed: ReplayedDecision): boolean {
  switch (happened) {
    case "auto":
      return replayed === "allow";
    case "approved":
    case "refused-by-you":
      return replayed === "ask";
    case "refused":
      return replayed === "deny";
  }
}

export const outcomeWords: Record<PastOutcome, string> = { auto: "ran without asking", approved: "asked, you approved", "refused-by-you": "asked, you refused", refused: "refused by the rules" };
