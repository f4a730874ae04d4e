/**
 * Claude Code's tool names in two roles, which differ on purpose:
 *
 * - Permission rules (`allowed-tools` of a custom command): as in Claude
 *   Code's permissions, `Edit` covers every tool that edits files and `Read`
 *   every tool that reads them (`matchableToolNames`).
 * - Hook matchers: a hook sees one name per call (claude-code-tools.ts), and
 *   its matcher is read as Claude Code reads it (`matcherMatches`).
 */
const permissionNames: Readonly<Record<string, readonly string[]>> = {
  Bash: ["execute_command"],
  Read: ["read_file", "list_files", "search_files", "list_code_definition_names", "lsp"],
  LSP: ["lsp"],
  Glob: ["list_files"],
  Grep: ["search_files"],
  LS: ["list_files"],
  Edit: ["write_to_file", "replace_in_file"],
  MultiEdit: ["write_to_file", "replace_in_file"],
  Write: ["write_to_file", "replace_in_file"],
  WebFetch: ["web_fetch"],
  Task: ["new_task"],
};

/**
 * The names a call answers to in a permission rule: cairn's own name, every
 * Claude Code name mapped to it, and for MCP tools Claude Code's `mcp__server__tool`.
 */
export function matchableToolNames(toolName: string, input: Record<string, unknown>): string[] {
  const names = [toolName];
  for (const [claude, cairn] of Object.entries(permissionNames)) if (cairn.includes(toolName)) names.push(claude);
  const server = input["server_name"];
  const tool = input["tool_name"];
  if (toolName === "use_mcp_tool" && typeof server === "string" && typeof tool === "string") names.push(`mcp__${server}__${tool}`);
  return names;
}

/** Letters, digits, `_` and `|` only: Claude Code compares such a matcher as exact names. */
const exactNames = /^[A-Za-z0-9_|]+$/;

/**
 * Claude Code's matcher: empty or `*` matches everything; one made only of
 * letters, digits, `_` and `|` is a list of exact names (`Bash`, `Edit|Write`);
 * anything else is a regular expression searched in the name (`mcp__memory__.*`, `^Notebook`).
 */
export function matcherMatches(matcher: string | undefined, subjects: readonly string[]): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (exactNames.test(matcher)) {
    const names = matcher.split("|");
    return subjects.some((subject) => names.includes(subject));
  }
  const pattern = compiledMatcher(matcher);
  return subjects.some((subject) => (pattern ? pattern.test(subject) : subject === matcher));
}

/** Matchers are compiled once: they are tested on every tool call. */
const compiledMatchers = new Map<string, RegExp | null>();

function compiledMatcher(matcher: string): RegExp | null {
  let pattern = compiledMatchers.get(matcher);
  if (pattern === undefined) {
    try {
      pattern = new RegExp(matcher);
    } catch {
      pattern = null; // not a valid expression: compared as a plain name
    }
    compiledMatchers.set(matcher, pattern);
  }
  return pattern;
}

/**
 * cairn's own hooks get cairn's parameters, plus `file_path` beside `path`
 * so a script that reads either finds it.
 */
export function hookToolInput(params: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = { ...params };
  if (params["path"] !== undefined && input["file_path"] === undefined) input["file_path"] = params["path"];
  return input;
}
