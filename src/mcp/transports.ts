/** Builds the SDK transport for one configured server. */
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpTransportConfig } from "./config.js";
import { LinearReadBuffer } from "./read-buffer.js";

export interface CreatedTransport {
  transport: Transport;
  /** The server process, for stdio servers once started. */
  pid(): number | undefined;
}

/** `authProvider`: the server's stored OAuth sign-in, for remote servers that have one. */
export function createTransport(config: McpTransportConfig, onStderrLine: (line: string) => void, authProvider?: OAuthClientProvider): CreatedTransport {
  if (config.type === "stdio") {
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      // Piped rather than inherited: a server's chatter must not draw over the UI.
      stderr: "pipe",
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    });
    // The SDK's buffer is quadratic in a message's size and caps it at 10 MB: a large tool result
    // timed out instead of arriving. Its transport reads through this field (checked by a test).
    if ("_readBuffer" in transport) Object.assign(transport, { _readBuffer: new LinearReadBuffer() });
    let pending = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      const lines = pending.split(/\r?\n/);
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.trim() !== "") onStderrLine(line);
    });
    return { transport, pid: () => transport.pid ?? undefined };
  }
  const url = new URL(config.url);
  const requestInit = { headers: config.headers };
  const auth = authProvider === undefined ? {} : { authProvider };
  if (config.type === "sse") {
    return { transport: new SSEClientTransport(url, { requestInit, ...auth }), pid: () => undefined };
  }
  // The hub reconnects whole sessions itself, so the SDK's own stream retries stay short.
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit,
    ...auth,
    reconnectionOptions: { initialReconnectionDelay: 500, maxReconnectionDelay: 2_000, reconnectionDelayGrowFactor: 2, maxRetries: 1 },
  });
  return { transport, pid: () => undefined };
}
