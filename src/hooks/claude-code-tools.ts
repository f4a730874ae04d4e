/**
 * A cairn tool call as a hook written for Claude Code sees it: Claude Code's
 * tool name, `tool_input` shape and (after the call) `tool_response` shape.
 *
 * | cairn | Claude Code |
 * |---|---|
 * | execute_command | Bash {command, timeout (ms)?, run_in_background?} |
 * | write_to_file | Write {file_path, content} |
 * | replace_in_file, one block | Edit {file_path, old_string, new_string, replace_all} |
 * | replace_in_file, several blocks | MultiEdit {file_path, edits} (an `Edit` matcher matches it too) |
 * | read_file | Read {file_path, offset?, limit?} |
 * | search_files | Grep {pattern, path, glob?} |
 * | list_files | Glob {pattern: "*" or "**\/*", path} |
 * | web_fetch | WebFetch {url, prompt} |
 * | use_mcp_tool (or a native MCP tool) | mcp__server__tool {its arguments} |
 * | access_mcp_resource | ReadMcpResourceTool {server, uri} |
 *
 * Other tools keep cairn's name and parameters. Paths are absolute, as Claude Code sends them.
 */
import { isAbsolute, resolve } from "node:path";
import type { ToolUseBlock } from "../parser/types.js";
import type { ToolOutcome } from "../task/contracts/tool-executor.js";
import { parseSearchReplace } from "../tools/diff/parse-blocks.js";

/** How one call is shown to hooks of one dialect. */
export interface HookToolView {
  name: string;
  input: Record<string, unknown>;
  /** What a matcher may match: the name first. */
  subjects: string[];
}

type Json = Record<string, unknown>;

export function absolutePath(workspace: string, path: string | undefined): string {
  const given = path ?? "";
  return isAbsolute(given) ? given : resolve(workspace, given === "" ? "." : given);
}

function wholeNumber(text: string | undefined): number | undefined {
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) return undefined;
  return Number(text);
}

/** Text params of a native call, decoded where they hold JSON (numbers, objects, lists). */
export function decodedParams(params: Record<string, string>): Json {
  const decoded: Json = {};
  for (const [key, value] of Object.entries(params)) {
    try {
      decoded[key] = JSON.parse(value) as unknown;
    } catch {
      decoded[key] = value;
    }
  }
  return decoded;
}

function parsedArguments(text: string | undefined): Json {
  try {
    const parsed = JSON.parse(text ?? "{}") as unknown;
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Json) : {};
  } catch {
    return {};
  }
}

function editInput(params: Record<string, string>, filePath: string): { name: "Edit" | "MultiEdit"; input: Json } {
  const blocks = parseSearchReplace(params["diff"] ?? "", { final: true }).blocks;
  if (blocks.length > 1) {
    return { name: "MultiEdit", input: { file_path: filePath, edits: blocks.map((block) => ({ old_string: block.search, new_string: block.replace })) } };
  }
  const block = blocks[0];
  return { name: "Edit", input: { file_path: filePath, old_string: block?.search ?? "", new_string: block?.replace ?? "", replace_all: false } };
}

export function claudeCodeToolView(block: Pick<ToolUseBlock, "name" | "params">, workspace: string): HookToolView {
  const { name, params } = block;
  const view = (claudeName: string, input: Json, extra: string[] = []): HookToolView => ({ name: claudeName, input, subjects: [...new Set([claudeName, ...extra, name])] });
  switch (name) {
    case "execute_command": {
      const seconds = wholeNumber(params["timeout"]);
      const background = (params["background"] ?? "").trim().toLowerCase() === "true";
      return view("Bash", { command: params["command"] ?? "", ...(seconds === undefined ? {} : { timeout: seconds * 1000 }), ...(background ? { run_in_background: true } : {}) });
    }
    case "write_to_file":
      return view("Write", { file_path: absolutePath(workspace, params["path"]), content: params["content"] ?? "" });
    case "replace_in_file": {
      const edit = editInput(params, absolutePath(workspace, params["path"]));
      // A guard on `Edit` must see every edit, however many blocks the model sent.
      return view(edit.name, edit.input, edit.name === "MultiEdit" ? ["Edit"] : []);
    }
    case "read_file": {
      const start = wholeNumber(params["start_line"]);
      const end = wholeNumber(params["end_line"]);
      const offset = start ?? (end === undefined ? undefined : 1);
      return view("Read", {
        file_path: absolutePath(workspace, params["path"]),
        ...(offset === undefined ? {} : { offset }),
        ...(end === undefined || offset === undefined ? {} : { limit: end - offset + 1 }),
      });
    }
    case "search_files":
      return view("Grep", { pattern: params["regex"] ?? "", path: absolutePath(workspace, params["path"]), ...(params["file_pattern"] === undefined ? {} : { glob: params["file_pattern"] }) });
    case "list_files":
      return view("Glob", { pattern: (params["recursive"] ?? "").trim().toLowerCase() === "true" ? "**/*" : "*", path: absolutePath(workspace, params["path"]) });
    case "web_fetch":
      // cairn fetches the whole page: there is no prompt to send.
      return view("WebFetch", { url: params["url"] ?? "", prompt: "" });
    case "use_mcp_tool":
      return view(`mcp__${params["server_name"] ?? ""}__${params["tool_name"] ?? ""}`, parsedArguments(params["arguments"]));
    case "access_mcp_resource":
      return view("ReadMcpResourceTool", { server: params["server_name"] ?? "", uri: params["uri"] ?? "" });
    default:
      if (name.startsWith("mcp__")) return view(name, decodedParams(params));
      return { name, input: { ...params }, subjects: [name] };
  }
}

function outcomeText(content: ToolOutcome["content"]): string {
  return typeof content === "string" ? content : content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
}

/** PostToolUse's `tool_response` for a call that succeeded, in Claude Code's shape for its tools. */
export function claudeCodeToolResponse(view: HookToolView, outcome: ToolOutcome): unknown {
  const text = outcomeText(outcome.content);
  const input = view.input;
  switch (view.name) {
    case "Bash":
      // cairn reports the command's exit code and output together, as one text.
      return { stdout: text, stderr: "", interrupted: false, isImage: false };
    case "Write":
      return { filePath: input["file_path"], content: input["content"], success: true };
    case "Edit":
      return { filePath: input["file_path"], oldString: input["old_string"], newString: input["new_string"], replaceAll: false, success: true };
    case "MultiEdit":
      return { filePath: input["file_path"], edits: input["edits"], success: true };
    case "Read":
      return { type: "text", file: { filePath: input["file_path"], content: text } };
    case "Grep":
      return { mode: "content", content: text };
    case "Glob": {
      const filenames = text.split("\n").filter((line) => line !== "" && !line.startsWith("[") && !line.endsWith(" is empty."));
      return { filenames, numFiles: filenames.length, truncated: text.includes("[Only the first") };
    }
    case "WebFetch":
      return { url: input["url"], result: text };
    default:
      if (view.name.startsWith("mcp__"))
        return typeof outcome.content === "string" ? [{ type: "text", text }] : outcome.content.map((part) => (part.type === "text" ? part : { type: "image", mimeType: part.mediaType, data: part.data }));
      return { status: outcome.status, content: text };
  }
}
