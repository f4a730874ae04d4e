/**
 * What the tools `use_mcp_tool` and `access_mcp_resource` need from the MCP hub.
 * The hub (src/mcp/) implements it; tools depend only on this port.
 */
import type { ImageContent, TextContent } from "../llm/types.js";

export interface McpToolInfo {
  server: string;
  name: string;
  description: string;
  /** JSON schema of the arguments, as the server declared it. */
  inputSchema: Record<string, unknown>;
  /** Listed in the server's `autoApprove` setting. */
  autoApprove: boolean;
}

export interface McpCallResult {
  /** What the model gets: a long result cut, with a note of its size. */
  content: Array<TextContent | ImageContent>;
  isError: boolean;
  /** The whole result as text when `content` was cut: shown to the user and kept in the task log. */
  fullText?: string;
}

/** A server's request for input during a call (MCP elicitation, form mode): a flat object of simple fields. */
export interface McpElicitation {
  server: string;
  message: string;
  requestedSchema: { properties: Record<string, Record<string, unknown>>; required?: string[] | undefined };
}

export type McpElicitationAnswer = { action: "accept"; content: Record<string, string | number | boolean> } | { action: "decline" } | { action: "cancel" };

export interface McpPort {
  /** Connected servers' tools (a server that is down contributes none). */
  listTools(): McpToolInfo[];
  getTool(server: string, tool: string): McpToolInfo | undefined;
  /** Names of configured servers and whether each is connected. */
  serverStatus(): Array<{ name: string; connected: boolean; error?: string }>;
  /** `onElicit` answers the server's requests for input while the call runs (without it they are declined). */
  callTool(options: {
    server: string;
    tool: string;
    arguments: Record<string, unknown>;
    signal: AbortSignal;
    onProgress?: (message: string) => void;
    onElicit?: (request: McpElicitation) => Promise<McpElicitationAnswer>;
  }): Promise<McpCallResult>;
  readResource(options: { server: string; uri: string; signal: AbortSignal }): Promise<McpCallResult>;
}
