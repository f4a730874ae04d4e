/**
 * The permission rules in force, from every source at once: each settings
 * file (managed, the project's Claude Code and cairn files, the user's) and
 * the flags. Deny and ask rules only add caution, so every file's count at
 * once; a project's allow rules reach this list only once the folder is
 * trusted (src/config/project-gate.ts holds them back before).
 */
import { parseRule, rulesFromBlock, type PermissionRule, type PermissionsBlock } from "./permission-rules.js";

export function collectPermissionRules(options: {
  /** Highest precedence first; `scope` and `path` name each rule's source (`user /home/me/.claude/settings.json`). */
  files: ReadonlyArray<{ path: string; scope: string; permissions: PermissionsBlock | undefined }>;
  flags: { allowedTools?: string[] | undefined; askTools?: string[] | undefined; disallowedTools?: string[] | undefined };
}): PermissionRule[] {
  const rules: PermissionRule[] = [];
  for (const file of options.files) rules.push(...rulesFromBlock(file.permissions, `${file.scope} ${file.path}`));
  const flag = (list: string[] | undefined, decision: "allow" | "ask" | "deny", name: string): void => {
    for (const entry of list ?? []) for (const text of splitRuleList(entry)) rules.push(parseRule(text, decision, `flag ${name}`));
  };
  flag(options.flags.allowedTools, "allow", "--allowed-tools");
  flag(options.flags.askTools, "ask", "--ask-tools");
  flag(options.flags.disallowedTools, "deny", "--disallowed-tools");
  return rules;
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
