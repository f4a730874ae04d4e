/** An McpPort for tool tests: fixed servers and tools, and a record of every call made. */
import type { McpCallResult, McpPort, McpToolInfo } from "../mcp-port.js";

export interface RecordingMcpPort extends McpPort {
  calls: Array<{ server: string; tool: string; arguments: Record<string, unknown> }>;
  reads: Array<{ server: string; uri: string }>;
}

export function createRecordingMcpPort(options: { tools: McpToolInfo[]; servers: Array<{ name: string; connected: boolean; error?: string }>; result?: McpCallResult }): RecordingMcpPort {
  const port: RecordingMcpPort = {
    calls: [],
    reads: [],
    listTools: () => options.tools,
    getTool: (server, tool) => options.tools.find((entry) => entry.server === server && entry.name === tool),
    serverStatus: () => options.servers,
    async callTool(call) {
      port.calls.push({ server: call.server, tool: call.tool, arguments: call.arguments });
      call.onProgress?.("halfway");
      return options.result ?? { content: [{ type: "text", text: `called ${call.tool}` }], isError: false };
    },
    async readResource(read) {
      port.reads.push({ server: read.server, uri: read.uri });
      return { content: [{ type: "text", text: `resource ${read.uri}` }], isError: false };
    },
  };
  return port;
}
