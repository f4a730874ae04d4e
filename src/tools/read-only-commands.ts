/**
 * Read-only subagents (issue #17, `explore`): a command runs only when the
 * rules' shell analysis finds every program a known read-only one and nothing
 * written, and no rule denies it. Anything else is refused with the reason.
 */
import { assessCommand, type PathOracle } from "../security/command-assessment.js";
import { PermissionRules } from "../security/permission-rules.js";

export async function readOnlyCommandRefusal(command: string, rules: PermissionRules | undefined, paths: PathOracle): Promise<string | undefined> {
  const assessment = await assessCommand({ command, rules: rules ?? new PermissionRules([], paths.cwd), paths });
  if (assessment.denied !== undefined) return `a permission rule denies ${assessment.denied.invocation}`;
  if (!assessment.readOnly) {
    return `this agent is read-only: it runs only commands that read (ls, cat, grep, git log ...), and "${command}" may change something. Use read_file, search_files or list_files instead.`;
  }
  return undefined;
}
