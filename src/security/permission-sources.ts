/**
 * The permission rules in force, from every source: the user's config, the
 * project's config (its allow rules only once the folder is trusted: deny and
 * ask rules only add caution, so they count at once), and the flags.
 */
import { parseRule, rulesFromBlock, type PermissionRule, type PermissionsBlock } from "./permission-rules.js";

export function collectPermissionRules(options: {
  user: { path: string; permissions: PermissionsBlock | undefined } | undefined;
  project: { path: string; permissions: PermissionsBlock | undefined } | undefined;
  trusted: boolean;
  flags: { allowedTools?: string[] | undefined; askTools?: string[] | undefined; disallowedTools?: string[] | undefined };
}): { rules: PermissionRule[]; gated: string[] } {
  const rules: PermissionRule[] = [];
  const gated: string[] = [];
  if (options.user !== undefined) rules.push(...rulesFromBlock(options.user.permissions, `user ${options.user.path}`));
  if (options.project !== undefined) {
    const block = options.project.permissions;
    const allow = block?.allow ?? [];
    if (!options.trusted && allow.length > 0) gated.push("permissions.allow");
    rules.push(...rulesFromBlock({ ...block, allow: options.trusted ? allow : [] }, `project ${options.project.path}`));
  }
  const flag = (list: string[] | undefined, decision: "allow" | "ask" | "deny", name: string): void => {
    for (const entry of list ?? []) for (const text of splitRuleList(entry)) rules.push(parseRule(text, decision, `flag ${name}`));
  };
  flag(options.flags.allowedTools, "allow", "--allowed-tools");
  flag(options.flags.askTools, "ask", "--ask-tools");
  flag(options.flags.disallowedTools, "deny", "--disallowed-tools");
  return { rules, gated };
}

/** `"Bash(git log:*) Read(src/**)"` or comma-separated, as Claude Code's --allowedTools takes them; parentheses keep their spaces. */
export function splitRuleList(text: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let current = "";
  for (const character of text) {
    if (character === "(") depth += 1;
    if (character === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (character === "," || character === " ")) {
      if (current.trim() !== "") rules.push(current.trim());
      current = "";
    } else current += character;
  }
  if (current.trim() !== "") rules.push(current.trim());
  return rules;
}
