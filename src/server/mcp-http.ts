/**
 * `cairn mcp serve --http`: the task tools over MCP's streamable HTTP, as safe as `cairn serve` (docs/server.md,
 * Security): loopback unless told otherwise, the token on every request, `Host` and `Origin` checked by the same
 * guard. Stateless: each POST gets a fresh MCP server over the shared registry (the tasks are the state), so a
 * client needs no session and a restart loses nothing but calls in flight.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createTaskMcpServer } from "./mcp-tools.js";
import { listenGuarded } from "./guarded-listen.js";
import type { RequestGuard } from "./request-guard.js";
import type { TaskRegistry } from "./task-registry.js";

export const mcpPath = "/mcp";

export interface McpHttpOptions {
  registry: TaskRegistry;
  host: string;
  port: number;
  token: string;
  version: string;
}

export interface RunningMcpHttp {
  /** The endpoint, without the token. */
  url: string;
  close(): Promise<void>;
}

export async function startMcpHttpServer(options: McpHttpOptions): Promise<RunningMcpHttp> {
  const fail = (response: ServerResponse, error: unknown): void => send(response, 500, `the server failed: ${error instanceof Error ? error.message : String(error)}`);
  const listening = await listenGuarded(createServer(), options, (request, response, guard) => handle(request, response, options, guard), fail);
  return {
    url: `http://${listening.shownHost}:${listening.port}${mcpPath}`,
    close: async () => {
      await options.registry.close();
      await listening.stop();
    },
  };
}

async function handle(request: IncomingMessage, response: ServerResponse, options: McpHttpOptions, guard: RequestGuard): Promise<void> {
  const url = new URL(request.url ?? "/", "http://server");
  const verdict = guard.check(request, url);
  if (!verdict.ok) return send(response, verdict.status, verdict.reason.replace("`cairn serve`", "`cairn mcp serve --http`"));
  if (url.pathname !== mcpPath) return send(response, 404, `no such endpoint: ${url.pathname} (MCP is at ${mcpPath})`);
  // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE).
  if (request.method !== "POST") return send(response, 405, `${request.method ?? "?"} is not allowed: this server is stateless, POST MCP messages to ${mcpPath}`);
  // Without a session id generator the transport is stateless.
  const mcp = createTaskMcpServer(options.registry, options.version);
  const transport = new StreamableHTTPServerTransport({});
  response.on("close", () => {
    void transport.close();
    void mcp.close();
  });
  await mcp.connect(transport);
  await transport.handleRequest(request, response);
}

/** An error as JSON-RPC clients read it (the MCP SDK's client shows the message). */
function send(response: ServerResponse, status: number, message: string): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...(status === 405 ? { allow: "POST" } : {}) });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}
