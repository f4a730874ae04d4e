/**
 * How one cairn tool message reads as an ACP tool call: its kind, title,
 * locations and content (diffs for edits). Pure functions over the message's
 * text and meta, so a live message and a replayed one look the same.
 */
import { isAbsolute, resolve } from "node:path";
import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";

const kinds: Record<string, ToolKind> = {
  read_file: "read",
  list_files: "read",
  list_code_definition_names: "read",
  lsp: "read",
  search_files: "search",
  write_to_file: "edit",
  replace_in_file: "edit",
  execute_command: "execute",
  web_fetch: "fetch",
  plan_mode_respond: "switch_mode",
  update_checklist: "think",
};

export function toolKind(tool: string): ToolKind {
  return kinds[tool] ?? "other";
}

export function toolTitle(tool: string, text: string): string {
  const firstLine = text.split("\n", 1)[0]?.trim() ?? "";
  if (tool === "execute_command") return firstLine === "" ? "Run a command" : `Run \`${firstLine}\``;
  return firstLine === "" ? tool : firstLine;
}

export function absolutePath(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

export function toolLocations(cwd: string, path: string | undefined): ToolCallLocation[] | undefined {
  if (path === undefined || path === "") return undefined;
  return [{ path: absolutePath(cwd, path) }];
}

/**
 * The hunks of a unified diff as ACP diffs (old and new text of each changed
 * region, with its context lines), so an editor can render them natively.
 */
export function diffContent(cwd: string, path: string, patch: string, created: boolean): ToolCallContent[] {
  const absolute = absolutePath(cwd, path);
  const hunks: Array<{ oldLines: string[]; newLines: string[] }> = [];
  let current: { oldLines: string[]; newLines: string[] } | undefined;
  for (const line of patch.split("\n")) {
    if (line.startsWith("@@")) {
      current = { oldLines: [], newLines: [] };
      hunks.push(current);
      continue;
    }
    if (current === undefined || line.startsWith("\\")) continue;
    const marker = line[0];
    const body = line.slice(1);
    if (marker === " ") {
      current.oldLines.push(body);
      current.newLines.push(body);
    } else if (marker === "-") {
      current.oldLines.push(body);
    } else if (marker === "+") {
      current.newLines.push(body);
    }
  }
  return hunks.map((hunk) => ({
    type: "diff",
    path: absolute,
    oldText: created ? null : hunk.oldLines.join("\n"),
    newText: hunk.newLines.join("\n"),
  }));
}

/** Text content of a tool call, fenced so an editor shows it verbatim. */
export function textContent(text: string): ToolCallContent {
  const fence = text.includes("```") ? "````" : "```";
  return { type: "content", content: { type: "text", text: `${fence}\n${text}\n${fence}` } };
}
