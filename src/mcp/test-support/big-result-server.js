// A tiny MCP server over stdio for tests: its tool `big` returns a text of `size` characters
// (default 5 million) made of `unit` (default ASCII; "é" doubles the bytes), ending with a
// marker, so a test can see whether the whole of it arrived.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "big-result", version: "1.0.0" });
server.registerTool("big", { description: "Returns a very long text", inputSchema: { size: z.number().int().positive().optional(), unit: z.string().min(1).optional() } }, async ({ size, unit }) => {
  const length = size ?? 5_000_000;
  const line = (unit ?? "0123456789abcdefghijklmnopqrstuvwxyz ").repeat(unit === undefined ? 2 : 72) + "\n";
  const body = line.repeat(Math.ceil(length / line.length)).slice(0, length - "END-OF-BIG-RESULT".length);
  return { content: [{ type: "text", text: `${body}END-OF-BIG-RESULT` }] };
});
await server.connect(new StdioServerTransport());
