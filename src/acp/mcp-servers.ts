/** MCP servers an editor hands over in `session/new` / `session/load`, as cairn's server configs. */
import type { McpServer } from "@agentclientprotocol/sdk";
import { defaultToolTimeoutSeconds, type McpServerConfig } from "../mcp/config.js";

function record(entries: Array<{ name: string; value: string }>): Record<string, string> {
  return Object.fromEntries(entries.map((entry) => [entry.name, entry.value]));
}

export function mcpServersFromClient(servers: McpServer[]): McpServerConfig[] {
  return servers.map((server) => {
    const common = { name: server.name, disabled: false, autoApprove: [], timeoutMs: defaultToolTimeoutSeconds * 1000, source: "the editor (ACP session)" };
    if ("type" in server && server.type === "http") return { ...common, transport: { type: "streamableHttp", url: server.url, headers: record(server.headers) } };
    if ("type" in server && server.type === "sse") return { ...common, transport: { type: "sse", url: server.url, headers: record(server.headers) } };
    return { ...common, transport: { type: "stdio", command: server.command, args: server.args, env: record(server.env) } };
  });
}
