/**
 * The `meta` fields of UI messages that the terminal UI reads. The Task and the
 * tools fill them; every field is optional on the wire, so each reader checks
 * types and returns `undefined` for anything it cannot use (the UI then falls
 * back to the message text). Keep this file in step with docs/tui.md.
 */

/**
 * `say` or `ask` of kind `tool` (and the `command` ask of `execute_command`).
 * Stream a tool call as partial messages sharing one id; the complete ask (or,
 * when auto-approved, the complete say) reuses that id, so the card fills in
 * and then becomes the approval prompt.
 */
export interface ToolMeta {
  /** The tool's name, e.g. `replace_in_file`. */
  tool: string;
  /** Workspace-relative path the call touches. */
  path?: string;
  /** The shell command (`execute_command`). */
  command?: string;
  /** Unified diff of the change an edit would make (shown coloured before approval). */
  diff?: string;
  /** One-line human summary from the tool's `describe(params)`; shown when there is no path or command. */
  description?: string;
  /** `search_files`: the pattern searched for. */
  regex?: string;
  /** `web_fetch`: the address. */
  url?: string;
  /** MCP tools and resources: the server, the tool's `name` and the resource `uri`. */
  server?: string;
  name?: string;
  uri?: string;
  /** `write_to_file` while streaming: the end of the content so far. */
  content?: string;
  /**
   * What the approval policy decided when the call became final. A `say` with
   * `"ask"` is followed by an `ask` that repeats it, so only the ask is shown.
   */
  approval?: "auto" | "ask" | "refuse";
  /** The path is outside the workspace (shown as a warning). */
  outsideWorkspace?: boolean;
  /** Set by the Task when the tool failed (#11), with the reason. */
  status?: "error";
  error?: string;
}

/** `say` of kind `api_req_started`: partial while the request runs, final with usage. */
export interface ApiRequestMeta {
  tokensIn: number;
  tokensOut: number;
  cacheReads: number;
  cacheWrites: number;
  /** Cost of this request in US dollars. */
  cost: number;
  /** Set when the request ended early, e.g. "user_cancelled" or "streaming_failed". */
  cancelReason?: string;
}

/** `say` of kind `error_retry`: shown as a countdown until `retryAt`. */
export interface RetryMeta {
  /** 1 for the first retry. */
  attempt: number;
  /** The delay chosen for this retry. */
  delayMs: number;
  /** When the retry starts, as epoch milliseconds (`Date.now()` clock). */
  retryAt: number;
  /** How many attempts will be made in total, if known. */
  maxAttempts?: number;
}

/** `ask` of kind `followup`: options the user can pick (the message text is the question). */
export interface FollowupMeta {
  options: string[];
}

/**
 * `say` of kind `command_output`: the message text is the output so far
 * (updated in place while partial). The final update says how the command
 * ended, either as `exitCode`/`signal` or as the tools' `end` object:
 * `{ kind: "exited", exitCode, signal } | { kind: "timed_out", timeoutMs }
 * | { kind: "aborted" } | { kind: "failed_to_start", message }`.
 */
export interface CommandOutputMeta {
  exitCode?: number;
  signal?: string;
  /** How it ended when it did not exit by itself: "timed out after 600 s", "aborted", ... */
  stopped?: string;
}


/** `say` of kind `checkpoint_created`. */
export interface CheckpointMeta {
  hash: string;
}

type Meta = Record<string, unknown> | undefined;

function stringField(meta: Meta, name: string): string | undefined {
  const value = meta?.[name];
  return typeof value === "string" ? value : undefined;
}

function numberField(meta: Meta, name: string): number | undefined {
  const value = meta?.[name];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** Copies only the optional string fields that are present (exactOptionalPropertyTypes). */
function withStrings<T extends object>(target: T, meta: Meta, names: readonly (keyof T & string)[]): T {
  for (const name of names) {
    const value = stringField(meta, name);
    if (value !== undefined) Object.assign(target, { [name]: value });
  }
  return target;
}

export function readToolMeta(meta: Meta): ToolMeta | undefined {
  const tool = stringField(meta, "tool");
  if (tool === undefined) return undefined;
  const result = withStrings<ToolMeta>({ tool }, meta, [
    "path",
    "command",
    "diff",
    "description",
    "regex",
    "url",
    "server",
    "name",
    "uri",
    "content",
  ]);
  const approval = stringField(meta, "approval");
  if (approval === "auto" || approval === "ask" || approval === "refuse") result.approval = approval;
  if (meta?.["outsideWorkspace"] === true) result.outsideWorkspace = true;
  if (meta?.["status"] === "error") {
    result.status = "error";
    result.error = stringField(meta, "error") ?? "failed";
  }
  return result;
}

export function readApiRequestMeta(meta: Meta): ApiRequestMeta | undefined {
  const tokensIn = numberField(meta, "tokensIn");
  const tokensOut = numberField(meta, "tokensOut");
  if (tokensIn === undefined || tokensOut === undefined) return undefined;
  const result: ApiRequestMeta = {
    tokensIn,
    tokensOut,
    cacheReads: numberField(meta, "cacheReads") ?? 0,
    cacheWrites: numberField(meta, "cacheWrites") ?? 0,
    cost: numberField(meta, "cost") ?? 0,
  };
  return withStrings(result, meta, ["cancelReason"]);
}

export function readRetryMeta(meta: Meta): RetryMeta | undefined {
  const attempt = numberField(meta, "attempt");
  const delayMs = numberField(meta, "delayMs");
  const retryAt = numberField(meta, "retryAt");
  if (attempt === undefined || delayMs === undefined || retryAt === undefined) return undefined;
  const maxAttempts = numberField(meta, "maxAttempts");
  return maxAttempts === undefined ? { attempt, delayMs, retryAt } : { attempt, delayMs, retryAt, maxAttempts };
}

export function readFollowupMeta(meta: Meta): FollowupMeta {
  const options = meta?.["options"];
  if (!Array.isArray(options)) return { options: [] };
  return { options: options.filter((option): option is string => typeof option === "string") };
}

export function readCommandOutputMeta(meta: Meta): CommandOutputMeta {
  const end = meta?.["end"];
  if (typeof end === "object" && end !== null && "kind" in end) {
    return readCommandEnd(end);
  }
  const result: CommandOutputMeta = {};
  const exitCode = numberField(meta, "exitCode");
  if (exitCode !== undefined) result.exitCode = exitCode;
  return withStrings(result, meta, ["signal"]);
}

function readCommandEnd(end: Record<string, unknown>): CommandOutputMeta {
  switch (end["kind"]) {
    case "exited": {
      const result: CommandOutputMeta = {};
      const exitCode = numberField(end, "exitCode");
      if (exitCode !== undefined) result.exitCode = exitCode;
      return withStrings(result, end, ["signal"]);
    }
    case "timed_out": {
      const timeoutMs = numberField(end, "timeoutMs");
      return { stopped: timeoutMs === undefined ? "timed out" : `timed out after ${Math.round(timeoutMs / 1000)} s` };
    }
    case "aborted":
      return { stopped: "aborted" };
    case "failed_to_start":
      return { stopped: `failed to start: ${stringField(end, "message") ?? "unknown error"}` };
    default:
      return {};
  }
}

export function readCheckpointMeta(meta: Meta): CheckpointMeta | undefined {
  const hash = stringField(meta, "hash");
  return hash === undefined ? undefined : { hash };
}
