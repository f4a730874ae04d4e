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
