/**
 * `cairn permissions suggest`: allow rules learned from what the user approved
 * by hand, again and again. Each candidate is the rule "always allow" offered
 * then, or narrower (the exact command, the one file); a candidate is kept
 * when, on top of the rules in force and the rules kept before it, it would
 * have saved at least `minimum` asks; the narrowest of those saving as many
 * wins. Each comes with every past action it would have allowed that the user
 * refused.
 */
import { dirname } from "node:path";
import type { ResolvedSettings } from "../../config/index.js";
import { parseRule, type PermissionRule } from "../../security/permission-rules.js";
import type { PastAction } from "./past-actions.js";
import { RuleSetJudge } from "./replayed-decisions.js";

export interface RuleSuggestion {
  rule: string;
  /** Past asks, approved by hand, it would have answered. */
  savedAsks: number;
  /** In how many tasks. */
  tasks: number;
  /** Past actions it would have allowed that the user refused when asked. */
  refusedButAllowed: Array<{ taskId: string; tool: string; text: string }>;
}

export async function suggestRules(options: { settings: ResolvedSettings; actions: readonly PastAction[]; minimum: number }): Promise<RuleSuggestion[]> {
  const { settings, actions } = options;
  const approved = actions.filter((action) => action.outcome === "approved");
  const candidates = [...new Set(approved.flatMap(candidatesFor))];
  const kept: PermissionRule[] = [];
  const suggestions: RuleSuggestion[] = [];
  // Answered already (by the rules in force or a rule kept before): no candidate gets credit for those.
  let answered = await allowedUnder(settings, [...settings.permissions], approved);
  for (;;) {
    let best: { rule: PermissionRule; saved: PastAction[] } | undefined;
    for (const text of candidates) {
      const rule = parseRuleOrUndefined(text);
      if (rule === undefined || kept.some((chosen) => chosen.text === text)) continue;
      const allowed = await allowedUnder(settings, [...settings.permissions, ...kept, rule], approved);
      const saved = approved.filter((action, index) => allowed[index] === true && answered[index] !== true);
      if (saved.length < options.minimum) continue;
      if (best === undefined || saved.length > best.saved.length || (saved.length === best.saved.length && narrower(rule.text, best.rule.text))) best = { rule, saved };
    }
    if (best === undefined) break;
    kept.push(best.rule);
    answered = await allowedUnder(settings, [...settings.permissions, ...kept], approved);
    const refused = actions.filter((action) => action.outcome === "refused-by-you");
    const wouldAllow = await allowedUnder(settings, [...settings.permissions, best.rule], refused);
    suggestions.push({
      rule: best.rule.text,
      savedAsks: best.saved.length,
      tasks: new Set(best.saved.map((action) => action.taskId)).size,
      refusedButAllowed: refused.filter((_, index) => wouldAllow[index] === true).map((action) => ({ taskId: action.taskId, tool: action.tool, text: action.text })),
    });
  }
  return suggestions;
}

/** For each action, whether the rule set lets it run without asking. */
async function allowedUnder(settings: ResolvedSettings, rules: PermissionRule[], actions: readonly PastAction[]): Promise<boolean[]> {
  const judge = new RuleSetJudge(settings, rules);
  const decided: boolean[] = [];
  for (const action of actions) decided.push((await judge.decide(action)) === "allow");
  return decided;
}

/** The rules that could have answered this ask: the one offered, and narrower ones. */
function candidatesFor(action: PastAction): string[] {
  const { request } = action;
  switch (request.kind) {
    case "command":
      return [...action.offered, ...(request.command.includes(")") ? [] : [`Bash(${request.command})`])];
    case "edit":
    case "read": {
      const tool = request.kind === "edit" ? "Edit" : "Read";
      if (!request.inside) return [];
      const folder = dirname(request.path);
      return [`${tool}(${request.path})`, ...(folder === "." ? [] : [`${tool}(${folder}/**)`])];
    }
    case "mcp":
      return request.server === undefined || request.tool === undefined ? [] : [`mcp__${request.server}__${request.tool}`];
    case "web": {
      const host = request.url === undefined ? undefined : hostOf(request.url);
      return host === undefined ? [] : [`WebFetch(domain:${host})`];
    }
    case "custom":
      return [request.tool];
  }
}

/** Fewer wildcards, then longer (more specific) text. */
function narrower(left: string, right: string): boolean {
  const wildcards = (text: string): number => (text.match(/\*/g) ?? []).length;
  return wildcards(left) !== wildcards(right) ? wildcards(left) < wildcards(right) : left.length > right.length;
}

function parseRuleOrUndefined(text: string): PermissionRule | undefined {
  try {
    return parseRule(text, "allow", "suggested");
  } catch {
    return undefined;
  }
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}
