/**
 * Tool and parameter names of the XML tool format. They are Cline's names, so
 * prompts, rules and habits written for Cline carry over (issue 2).
 */
export const KNOWN_TOOL_NAMES: readonly string[] = Object.freeze([
  "execute_command",
  "read_file",
  "write_to_file",
  "replace_in_file",
  "search_files",
  "list_files",
  "list_code_definition_names",
  "ask_followup_question",
  "attempt_completion",
  "plan_mode_respond",
  "new_task",
  "use_mcp_tool",
  "access_mcp_resource",
  "web_fetch",
]);

export const KNOWN_PARAMETER_NAMES: readonly string[] = Object.freeze([
  "command",
  "requires_approval",
  "timeout",
  "path",
  "content",
  "diff",
  "regex",
  "file_pattern",
  "recursive",
  "start_line",
  "end_line",
  "question",
  "options",
  "result",
  "response",
  "context",
  "server_name",
  "tool_name",
  "arguments",
  "uri",
  "url",
  "task_progress",
]);

/**
 * Parameters whose value is file text: they may contain their own closing tag,
 * and only one leading and one trailing newline are removed (rule 4).
 */
export const VERBATIM_PARAMETER_NAMES: readonly string[] = Object.freeze(["content", "diff"]);

/**
 * A set of tag names that also answers "could this unfinished name still
 * become one of them?", which the parser asks about the end of the input.
 */
export class TagNames {
  private readonly names = new Set<string>();
  private readonly prefixes = new Set<string>();
  private longest = 0;

  constructor(lists: readonly (Iterable<string> | undefined)[]) {
    for (const list of lists) {
      // Options may come from plain JavaScript or configuration: skip what is not a list instead of failing.
      if (list === undefined || list === null || typeof (list as Partial<Iterable<string>>)[Symbol.iterator] !== "function") continue;
      for (const name of list) this.add(name);
    }
  }

  /** Length of the longest name, so a tag scan knows when to give up. */
  get maxLength(): number {
    return this.longest;
  }

  has(name: string): boolean {
    return this.names.has(name);
  }

  /** True when `partial` is the beginning (possibly all) of a known name. */
  couldStart(partial: string): boolean {
    return this.prefixes.has(partial);
  }

  private add(name: unknown): void {
    // A name holding `<`, `>` or `/` could never be written as a tag; skip it rather than fail.
    if (typeof name !== "string" || name.length === 0 || /[<>/]/.test(name)) return;
    this.names.add(name);
    for (let end = 0; end <= name.length; end += 1) this.prefixes.add(name.slice(0, end));
    this.longest = Math.max(this.longest, name.length);
  }
}
