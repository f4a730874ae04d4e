/**
 * A custom command's `allowed-tools` (Claude Code's front matter): while its
 * task runs, the calls it names need no approval ask, within what the safety
 * rules let anything pre-approve. `Bash(git diff:*)` is a command prefix,
 * `Bash(npm test)` an exact command, `Edit(src/**)` a path glob, `Read` a
 * whole tool; Claude Code's tool names map to cairn's.
 */
import type { ToolExecutor } from "../task/contracts/tool-executor.js";
import { withExecuteTool } from "../task/contracts/tool-executor.js";
import { matchableToolNames } from "../hooks/tool-names.js";
import { globMatches } from "../prompt/glob-match.js";

interface AllowedTool {
  tool: string;
  argument?: string;
}

export function parseAllowedTools(entries: readonly string[]): AllowedTool[] {
  // `Bash(git add:*), Read` arrives as one string or a list; commas inside parentheses belong to the entry.
  const parts = entries.flatMap((entry) => entry.match(/[^,(]+(?:\([^)]*\))?/g) ?? []);
  return parts
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => {
      const match = /^([\w:.*-]+)(?:\((.*)\))?$/.exec(part);
      if (!match) return { tool: part };
      return match[2] === undefined ? { tool: match[1] ?? part } : { tool: match[1] ?? part, argument: match[2] };
    });
}

function argumentMatches(argument: string, params: Record<string, string>): boolean {
  const command = params["command"];
  if (command !== undefined) {
    const trimmed = command.trim();
    if (argument.endsWith(":*")) {
      const prefix = argument.slice(0, -2).trim();
      // A prefix never covers a chained command: `git diff && rm -rf /` is not `git diff`.
      return (trimmed === prefix || trimmed.startsWith(`${prefix} `)) && !/[;&|`$<>]/.test(trimmed);
    }
    return trimmed === argument.trim();
  }
  const path = params["path"];
  return path !== undefined && globMatches(argument, path.replace(/^\.\//, ""));
}

export function allowsCall(allowed: readonly AllowedTool[], name: string, params: Record<string, string>): boolean {
  const names = matchableToolNames(name, params);
  return allowed.some((entry) => names.includes(entry.tool) && (entry.argument === undefined || argumentMatches(entry.argument, params)));
}

export function withAllowedTools(executor: ToolExecutor, entries: readonly string[]): ToolExecutor {
  const allowed = parseAllowedTools(entries);
  if (allowed.length === 0) return executor;
  return withExecuteTool(executor, (block, context) => executor.executeTool(block, allowsCall(allowed, block.name, block.params) ? { ...context, hookApproval: context.hookApproval ?? "allow" } : context));
}
