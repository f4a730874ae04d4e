/**
 * The `meta` of a tool's card (`say`/`ask` of kind `tool`, `command`,
 * `completion_result`, `followup`, `use_mcp_server`, `plan_mode_respond`),
 * declared per tool name for the tools that write it (src/tools/**,
 * src/extensions, src/browser) and read by every surface through
 * `metaOf`/`isToolMeta` (message-meta.ts). The JSON on the wire is exactly
 * these objects.
 */

/** How an `execute_command` ended (src/tools/command/run-command.ts runs it). */
export type CommandEnd = { kind: "exited"; exitCode: number | null; signal: string | null } | { kind: "timed_out"; timeoutMs: number } | { kind: "aborted" } | { kind: "failed_to_start"; message: string };

/** What a subagent's run came to, as the parent's `use_subagents` reports it (an `info` message). */
export type SubagentReportMeta = {
  subagentId: string;
  taskId: string;
  status: string;
  tokensIn: number;
  tokensOut: number;
  cost: number;
  /** Actions of the child that were refused (absent when none). */
  refused?: number;
};

/**
 * The problems an edit introduced, as language servers found them (src/lsp/):
 * counts of new errors and warnings in the edited file and its importers;
 * `unavailable` says why none were checked (a server too slow or gone).
 */
export type EditDiagnosticsCounts = { errors: number; warnings: number; unavailable?: string };

/**
 * What the approval policy (src/tools/approval.ts) adds to a card when the call
 * becomes final, and what the Task adds when the tool failed (#11).
 */
export type ApprovalVerdictName = "auto" | "ask" | "refuse";

export type ToolCardMeta = {
  /** A `say` with `"ask"` is followed by an `ask` that repeats it. */
  approval?: ApprovalVerdictName;
  /** Hidden characters found in what is shown (as `U+XXXX`). */
  hiddenCharacters?: string[];
  /** Why the security layer decided as it did. */
  reason?: string;
  /** An ask that --yes does not answer. */
  explicitApproval?: true;
  /** A rule that would allow calls like this one ("always"). */
  suggestedRule?: string;
  /** Whether a PermissionRequest hook may answer this ask. */
  hookMayApprove?: boolean;
  /** The command runs (or would run, once approved) outside the sandbox. */
  unsandboxed?: true;
  /** Auto mode judged this call (src/tools/auto-mode): its decision, one-line reason and cost; `failed` when the judge could not decide (fails closed). */
  autoMode?: { decision: "allow" | "ask" | "deny"; reason: string; failed?: true; model: string; tokensIn: number; tokensOut: number; cost: number; durationMs: number };
  /** A PreToolUse hook blocked the call before it ran: the hook's reason (src/hooks/tool-hooks.ts). */
  blocked?: string;
  /**
   * Set by the Task when the call ended (src/task/tool-runner.ts): `error` when the tool
   * failed (or the rules refused it), `rejected` when it did not run because its approval
   * was answered no (or a hook blocked it); `error` says why, in a line for the user.
   */
  status?: "error" | "rejected";
  error?: string;
  /** How a command ended and how long it ran (execute_command), added when it ended. */
  end?: CommandEnd;
  durationMs?: number;
  /** An edit's new problems (write_to_file, replace_in_file), added when it ended. */
  diagnostics?: EditDiagnosticsCounts;
};

/** Fields of the file tools: the path as shown, and whether it is outside the workspace (src/tools/path-access.ts). */
type PathFields = { path: string; outsideWorkspace?: boolean };

/** An edit's preview: the unified diff of the change (shown before approval). */
type EditFields = PathFields & {
  diff?: string;
  /**
   * `write_to_file`: while the call streams, the end of the content so far (its last
   * 4000 characters) and the length so far; on the final card (and its ask), the whole
   * content the call writes (final newline and line endings included; hidden characters shown
   * escaped, src/security/display-text.ts), and its length.
   */
  content?: string;
  characters?: number;
  /** The file did not exist before. */
  created?: boolean;
};

/** Each tool's own fields, by tool name; `tool` itself is added by `ToolMetaOf`. */
export type ToolMetaByName = {
  read_file: PathFields;
  list_files: PathFields;
  list_code_definition_names: PathFields;
  search_files: PathFields & { regex?: string };
  /** A question to the language servers (src/tools/builtin/lsp.ts); `path` is the workspace for workspace_symbols. */
  lsp: PathFields & { operation: string; line?: number; query?: string };
  write_to_file: EditFields;
  /** `write_to_file` under another name (src/extensions/new-rule-tool.ts). */
  new_rule: Partial<EditFields>;
  replace_in_file: EditFields & { blocks?: number; blocksComplete?: number };
  /** `background`: started with `background: true`, to keep running while the task goes on (#31); `previewable`: the ask may be answered "preview" (#30: run on a copy-on-write view first, src/tools/preview/). */
  execute_command: { command: string; requiresApproval?: boolean; cwd?: string; background?: true; previewable?: true };
  /** A background process's id (`p1`), as the model named it (src/tools/process/process-tools.ts). */
  read_process_output: { processId: string };
  stop_process: { processId: string };
  web_fetch: { url: string };
  use_mcp_tool: { server: string; name: string; arguments?: unknown };
  /**
   * A custom tool of the program embedding cairn (src/tools/custom-tool.ts), whatever its name:
   * `name` is the tool's own name (what rules and hooks see), `input` its arguments once checked.
   */
  custom_tool: { name: string; input?: unknown };
  access_mcp_resource: { server: string; uri: string };
  ask_followup_question: { options?: string[]; unanswered?: true };
  attempt_completion: { command?: string };
  plan_mode_respond: Record<never, never>;
  new_task: { context: string };
  use_subagents: { subagents: Array<{ subagentId: string; agent: string; prompt: string }> };
  /** The ask to merge a subagent's changes (src/tools/builtin/use-subagents.ts). */
  subagent_merge: { subagentId: string; files: string[]; diff: string; branch?: string };
  use_skill: { skill?: string; folder?: string };
  browser_action: { action?: string; url?: string; coordinate?: string; text?: string; logs?: string[] };
};

export type ToolName = keyof ToolMetaByName;

/** The tools whose card names a file or folder (`path`). */
export const pathTools = ["read_file", "list_files", "list_code_definition_names", "search_files", "write_to_file", "new_rule", "replace_in_file", "lsp"] as const satisfies readonly ToolName[];
export type PathToolName = (typeof pathTools)[number];

/** The tools whose card shows a unified diff (`diff`) of the change it asks to make. */
export const diffTools = ["write_to_file", "new_rule", "replace_in_file", "subagent_merge"] as const satisfies readonly ToolName[];

/** The meta of a card of tool `N`. */
export type ToolMetaOf<N extends ToolName> = { tool: N } & ToolMetaByName[N] & ToolCardMeta;

/** What a tool writes on its card: the meta of any declared tool. */
export type ToolMeta = { [N in ToolName]: ToolMetaOf<N> }[ToolName];

/**
 * The card the Task shows for a failed call that showed no card of its own
 * (a tool cairn does not have, a missing parameter): only the failure.
 */
export type UnpresentedToolFailureMeta = { tool: string; status: "error" | "rejected"; error: string };

/**
 * A tool card as readers get it. Any card may be the Task's failure-only card
 * (`UnpresentedToolFailureMeta`, of any tool name), so beyond `tool` and the
 * shared card fields every field may be missing; narrow to a tool's own fields
 * with `isToolMeta(meta, "read_file", ...)`.
 */
export type ToolCard = { [N in ToolName]: { tool: N } & Partial<ToolMetaByName[N]> & ToolCardMeta }[ToolName] | ({ tool: string } & ToolCardMeta);
