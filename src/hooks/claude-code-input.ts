/**
 * A PreToolUse hook's `updatedInput`, given in the shape its dialect sent,
 * back into the cairn tool's parameters. A field cairn has no equivalent for
 * is ignored, unless carrying the call out without it would do something else
 * than the hook asked (Edit's `replace_all`): then the call is blocked.
 */
import { isAbsolute, relative, sep } from "node:path";
import type { ToolUseBlock } from "../parser/types.js";
import type { HookDialect } from "./hook-definition.js";
import type { HookToolView } from "./claude-code-tools.js";

type Json = Record<string, unknown>;
export type MappedInput = { params: Record<string, string> } | { problem: string };

/** A path back as cairn's tools take it: relative when it is inside the workspace. */
function workspacePath(workspace: string, path: string): string {
  if (!isAbsolute(path)) return path;
  const inside = relative(workspace, path);
  if (inside === "") return ".";
  return inside.startsWith(`..${sep}`) || inside === ".." || isAbsolute(inside) ? path : inside;
}

function line(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

function searchReplaceBlock(oldString: string, newString: string): string {
  return `------- SEARCH\n${line(oldString)}=======\n${line(newString)}+++++++ REPLACE`;
}

class UnusableInput extends Error {}

function text(input: Json, key: string, required = true): string | undefined {
  const value = input[key];
  if (value === undefined || value === null) {
    if (required) throw new UnusableInput(`it has no "${key}"`);
    return undefined;
  }
  if (typeof value !== "string") throw new UnusableInput(`its "${key}" is not text`);
  return value;
}

function number(input: Json, key: string): number | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw new UnusableInput(`its "${key}" is not a number of 0 or more`);
  return value;
}

function editBlocks(edits: unknown): string {
  if (!Array.isArray(edits) || edits.length === 0) throw new UnusableInput('its "edits" is not a list of {old_string, new_string}');
  return edits
    .map((edit: unknown) => {
      const entry = (typeof edit === "object" && edit !== null ? edit : {}) as Json;
      if (entry["replace_all"] === true) throw new UnusableInput("cairn cannot replace every occurrence (replace_all)");
      return searchReplaceBlock(text(entry, "old_string") ?? "", text(entry, "new_string") ?? "");
    })
    .join("\n");
}

/** The Claude Code input (the view's, with the hook's fields over it) as cairn parameters. */
function fromClaudeCode(view: HookToolView, input: Json, original: Record<string, string>, workspace: string): Record<string, string> {
  const path = (key: string): string => workspacePath(workspace, text(input, key) ?? "");
  switch (view.name) {
    case "Bash": {
      const timeout = number(input, "timeout");
      const params: Record<string, string> = { ...original, command: text(input, "command") ?? "" };
      if (timeout !== undefined) params["timeout"] = String(Math.max(1, Math.ceil(timeout / 1000)));
      return params;
    }
    case "Write":
      return { ...original, path: path("file_path"), content: text(input, "content") ?? "" };
    case "Edit":
      if (input["replace_all"] === true) throw new UnusableInput("cairn cannot replace every occurrence (replace_all)");
      return { ...original, path: path("file_path"), diff: searchReplaceBlock(text(input, "old_string") ?? "", text(input, "new_string") ?? "") };
    case "MultiEdit":
      return { ...original, path: path("file_path"), diff: editBlocks(input["edits"]) };
    case "Read": {
      const { start_line: _start, end_line: _end, ...rest } = original;
      const offset = number(input, "offset");
      const limit = number(input, "limit");
      const start = offset === undefined ? undefined : Math.max(1, Math.floor(offset));
      return {
        ...rest,
        path: path("file_path"),
        ...(start === undefined ? {} : { start_line: String(start) }),
        ...(limit === undefined || limit < 1 ? {} : { end_line: String((start ?? 1) + Math.floor(limit) - 1) }),
      };
    }
    case "Grep": {
      const { file_pattern: _pattern, ...rest } = original;
      const glob = text(input, "glob", false);
      return { ...rest, regex: text(input, "pattern") ?? "", path: workspacePath(workspace, text(input, "path", false) ?? "."), ...(glob === undefined ? {} : { file_pattern: glob }) };
    }
    case "Glob":
      return { ...original, path: workspacePath(workspace, text(input, "path", false) ?? "."), recursive: String((text(input, "pattern", false) ?? "*").includes("**")) };
    case "WebFetch":
      return { ...original, url: text(input, "url") ?? "" };
    case "ReadMcpResourceTool":
      return { ...original, server_name: text(input, "server") ?? "", uri: text(input, "uri") ?? "" };
    default:
      if (view.name.startsWith("mcp__") && original["server_name"] !== undefined) return { ...original, arguments: JSON.stringify(input) };
      return Object.fromEntries(Object.entries(input).flatMap(([key, value]) => (value === undefined || value === null ? [] : [[key, typeof value === "string" ? value : JSON.stringify(value)]])));
  }
}

/** cairn's own hooks read `tool_input.file_path` or `path`; a changed `file_path` counts unless `path` itself was changed. */
function fromCairn(updated: Json, original: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = { ...original };
  for (const [key, value] of Object.entries(updated)) {
    if (key === "file_path" || value === undefined || value === null) continue;
    params[key] = typeof value === "string" ? value : JSON.stringify(value);
  }
  const filePath = updated["file_path"];
  if (typeof filePath === "string" && params["path"] === original["path"] && filePath !== original["path"]) params["path"] = filePath;
  return params;
}

/** The call's parameters after a hook's `updatedInput`, or why it cannot be carried out. */
export function paramsFromUpdatedInput(options: {
  block: Pick<ToolUseBlock, "name" | "params">;
  dialect: HookDialect;
  /** The view the hook was sent (Claude Code's dialect). */
  view: HookToolView;
  updated: Json;
  workspace: string;
}): MappedInput {
  const { block, updated } = options;
  if (options.dialect === "cairn") return { params: fromCairn(updated, block.params) };
  try {
    // A hook may send the whole input or only the fields it changes.
    return { params: fromClaudeCode(options.view, { ...options.view.input, ...updated }, block.params, options.workspace) };
  } catch (error) {
    if (error instanceof UnusableInput) return { problem: `a PreToolUse hook's updatedInput for ${options.view.name} cannot be carried out: ${error.message}` };
    throw error;
  }
}

/** Claude Code's tool names to the cairn tool that does the job, for a call named the Claude Code way. */
const cairnTools: Readonly<Record<string, string>> = {
  Bash: "execute_command",
  Write: "write_to_file",
  Edit: "replace_in_file",
  MultiEdit: "replace_in_file",
  Read: "read_file",
  Grep: "search_files",
  Glob: "list_files",
  WebFetch: "web_fetch",
  ReadMcpResourceTool: "access_mcp_resource",
};

/** A call given in Claude Code's terms (`Bash`, `{command}`) as the cairn call it stands for; undefined for other names. */
export function claudeCodeToolCall(name: string, input: Json, workspace: string): { name: string; params: Record<string, string> } | undefined {
  const mcp = /^mcp__(.+?)__(.+)$/.exec(name);
  const tool = mcp ? "use_mcp_tool" : cairnTools[name];
  if (tool === undefined) return undefined;
  const original: Record<string, string> = mcp ? { server_name: mcp[1] ?? "", tool_name: mcp[2] ?? "" } : tool === "execute_command" ? { requires_approval: "true" } : {};
  try {
    return { name: tool, params: fromClaudeCode({ name, input: {}, subjects: [name] }, input, original, workspace) };
  } catch (error) {
    if (error instanceof UnusableInput) throw new Error(`--input for ${name}: ${error.message}`, { cause: error });
    throw error;
  }
}
