/** Shared handling of an MCP call's result for the two MCP tools. */
import type { ToolOutcome } from "../../task/contracts/tool-executor.js";
import type { McpCallResult } from "../mcp-port.js";
import type { ToolRuntime } from "../tool-definition.js";

export function mcpOutcome(runtime: ToolRuntime, result: McpCallResult): ToolOutcome {
  const text = result.content.map((part) => (part.type === "text" ? part.text : `[image ${part.mediaType}]`)).join("\n");
  // The record of what the server returned is whole (the task log keeps it); the model's copy may be cut.
  runtime.context.say("mcp_server_response", result.fullText ?? text, { meta: { tool: runtime.toolName, isError: result.isError } });
  const content = result.content.length === 0 ? "(the server returned no content)" : result.content;
  if (result.isError) {
    const parts = typeof content === "string" ? [{ type: "text" as const, text: content }] : content;
    return { status: "error", content: [{ type: "text", text: "The MCP server reported an error:" }, ...parts] };
  }
  return { status: "success", content };
}
