/**
 * Claude Code's tool names, as they appear in hook matchers, mapped to the
 * cairn tools that do the same job (`Bash` matches `execute_command`).
 */
const claudeToCairn: Readonly<Record<string, readonly string[]>> = {
  Bash: ["execute_command"],
  Read: ["read_file", "list_files", "search_files", "list_code_definition_names"],
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
 * The names a tool call answers to in a matcher: cairn's own name, every
 * Claude Code name mapped to it, and for MCP tools Claude Code's
 * `mcp__server__tool`.
 */
export function matchableToolNames(toolName: string, input: Record<string, unknown>): string[] {
  const names = [toolName];
  for (const [claude, cairn] of Object.entries(claudeToCairn)) if (cairn.includes(toolName)) names.push(claude);
  const server = input["server_name"];
  const tool = input["tool_name"];
  if (toolName === "use_mcp_tool" && typeof server === "string" && typeof tool === "string") names.push(`mcp__${server}__${tool}`);
  return names;
}

/**
 * Claude Code's matcher: empty or `*` matches everything; otherwise a regular
 * expression that must match a whole name (`Edit|Write`, `mcp__memory__.*`).
 */
export function matcherMatches(matcher: string | undefined, subjects: readonly string[]): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  const pattern = compiledMatcher(matcher);
  return subjects.some((subject) => (pattern ? pattern.test(subject) : subject === matcher));
}

/** Matchers are compiled once: they are tested on every tool call. */
const compiledMatchers = new Map<string, RegExp | null>();

function compiledMatcher(matcher: string): RegExp | null {
  let pattern = compiledMatchers.get(matcher);
  if (pattern === undefined) {
    try {
      pattern = new RegExp(`^(?:${matcher})$`);
    } catch {
      pattern = null; // not a valid expression: compared as a plain name
    }
    compiledMatchers.set(matcher, pattern);
  }
  return pattern;
}

/**
 * Claude Code's hooks read `tool_input.file_path`; cairn's tools say `path`.
 * Both are sent, so either kind of script finds what it looks for.
 */
export function hookToolInput(params: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = { ...params };
  if (params["path"] !== undefined && input["file_path"] === undefined) input["file_path"] = params["path"];
  return input;
}

/** A rewritten input from a hook back into the tool's parameters (text values). */
export function toolParamsFromHook(updated: Record<string, unknown>, original: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = { ...original };
  for (const [key, value] of Object.entries(updated)) {
    if (key === "file_path" || value === undefined || value === null) continue;
    params[key] = typeof value === "string" ? value : JSON.stringify(value);
  }
  // A Claude Code script rewrites `file_path`; it counts unless `path` itself was changed.
  const filePath = updated["file_path"];
  if (typeof filePath === "string" && params["path"] === original["path"] && filePath !== original["path"]) params["path"] = filePath;
  return params;
}
