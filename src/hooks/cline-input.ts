/**
 * What a hook written for Cline (an executable in `.clinerules/hooks/`) reads
 * on its standard input: Cline's base fields (`clineVersion`, `hookName`,
 * `timestamp`, `taskId`, `workspaceRoots`, `userId`) and the event's own
 * object (`preToolUse: {toolName, parameters}`, `postToolUse: {..., result,
 * success, executionTimeMs}`, `userPromptSubmit: {prompt}`, `taskStart:
 * {taskMetadata: {taskId, ulid, initialTask}}` ...), built from what cairn's
 * own hooks are told. cairn's fields stay beside them.
 */
import type { HookEvent } from "./events.js";

type Json = Record<string, unknown>;

const clineKeys: Partial<Record<HookEvent, string>> = {
  PreToolUse: "preToolUse",
  PostToolUse: "postToolUse",
  PostToolUseFailure: "postToolUse",
  UserPromptSubmit: "userPromptSubmit",
  TaskStart: "taskStart",
  TaskResume: "taskResume",
  TaskCancel: "taskCancel",
  TaskComplete: "taskComplete",
  PreCompact: "preCompact",
};

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Cline's tool parameters are text: cairn's, as the model sent them. */
function parameters(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null) return {};
  return Object.fromEntries(Object.entries(value as Json).flatMap(([key, entry]) => (typeof entry === "string" ? [[key, entry]] : [])));
}

function eventData(event: HookEvent, payload: Json, taskMetadata: Json): Json {
  switch (event) {
    case "PreToolUse":
      return { toolName: text(payload["tool_name"]), parameters: parameters(payload["tool_input"]) };
    case "PostToolUse":
    case "PostToolUseFailure": {
      const response = payload["tool_response"];
      const result = event === "PostToolUse" && typeof response === "object" && response !== null ? text((response as Json)["content"]) : text(payload["error"]);
      const executionTimeMs = typeof payload["execution_time_ms"] === "number" ? payload["execution_time_ms"] : 0;
      return { toolName: text(payload["tool_name"]), parameters: parameters(payload["tool_input"]), result, success: event === "PostToolUse", executionTimeMs };
    }
    case "UserPromptSubmit":
      return { prompt: text(payload["prompt"]), attachments: [] };
    case "TaskStart":
      return { taskMetadata: { ...taskMetadata, initialTask: text(payload["task"]) } };
    default:
      return { taskMetadata };
  }
}

/** Cline's fields for one hook run; `fields` is what cairn's hooks get (its base payload and the event's). */
export function clineHookInput(options: { event: HookEvent; hookName: string; fields: Json; cwd: string; version: string }): Json {
  const { event, fields } = options;
  const taskId = text(fields["session_id"]);
  const key = clineKeys[event];
  return {
    clineVersion: options.version,
    hookName: options.hookName,
    timestamp: String(Date.now()),
    taskId,
    workspaceRoots: [options.cwd],
    userId: "",
    ...(key === undefined ? {} : { [key]: eventData(event, fields, { taskId, ulid: taskId }) }),
  };
}
