import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { UiMessage } from "../../../task/messages.js";
import { readMcpMeta, readToolMeta } from "../meta.js";
import { cleanLine } from "../terminal-text.js";
import { DiffView } from "./diff-view.js";

const verbs: Record<string, string> = {
  read_file: "Read",
  write_to_file: "Write",
  replace_in_file: "Edit",
  list_files: "List",
  search_files: "Search",
  list_code_definition_names: "Outline",
  execute_command: "Run",
  browser_action: "Browse",
  use_mcp_tool: "MCP tool",
  access_mcp_resource: "MCP resource",
  new_task: "New task",
  web_fetch: "Fetch",
};

/** What a tool call does, in a few words: the verb and the path or command. */
export function describeTool(message: UiMessage): { verb: string; target: string } {
  const meta = readToolMeta(message.meta);
  if (message.type === "ask" && message.ask === "use_mcp_server") {
    const mcp = readMcpMeta(message.meta);
    if (mcp !== undefined) return { verb: "MCP", target: `${mcp.server} ${mcp.tool ?? mcp.resource ?? ""}`.trim() };
  }
  if (meta === undefined) {
    const isCommand = message.type === "ask" ? message.ask === "command" : message.say === "command";
    return { verb: isCommand ? "Run" : "Tool", target: firstLine(message.text) };
  }
  const verb = verbs[meta.tool] ?? meta.tool;
  const target = meta.command ?? meta.path ?? meta.description ?? firstLine(message.text);
  return { verb, target };
}

function firstLine(text: string): string {
  const newline = text.indexOf("\n");
  return cleanLine(newline === -1 ? text : text.slice(0, newline));
}

/** A tool call as a compact card that fills in while the call streams. */
export function ToolCard({
  message,
  width,
  maxDiffLines,
}: {
  message: UiMessage;
  width: number;
  maxDiffLines: number;
}): ReactNode {
  const { verb, target } = describeTool(message);
  const meta = readToolMeta(message.meta);
  const isCommand = meta?.command !== undefined || verb === "Run";
  return (
    <Box flexDirection="column" width={width}>
      <Box>
        <Text color={message.partial ? "gray" : "yellow"}>{"⏺ "}</Text>
        <Text bold>{verb}</Text>
        <Text> </Text>
        <Box flexShrink={1}>
          <Text color="cyan" wrap={isCommand ? "wrap" : "truncate-middle"}>
            {isCommand ? `$ ${target}` : target}
          </Text>
        </Box>
        {message.partial ? <Text color="gray">{" …"}</Text> : null}
      </Box>
      {meta?.diff !== undefined && meta.diff !== "" ? (
        <Box paddingLeft={2}>
          <DiffView diff={meta.diff} width={width - 2} maxLines={maxDiffLines} />
        </Box>
      ) : null}
    </Box>
  );
}
