/**
 * What `cairn serve` and `cairn mcp serve --http` share: listening on an address, then handing every request
 * to its handler with the guard (docs/server.md, Security) that knows the port the server got.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { RequestGuard } from "./request-guard.js";

export interface GuardedListenOptions {
  host: string;
  port: number;
  token: string;
  /** More `Host` names the server answers to (its addresses beyond loopback). */
  extraHosts?: string[];
}

export interface Listening {
  port: number;
  /** The host as a URL names it (an IPv6 address in brackets). */
  shownHost: string;
  /** Ends every connection and stops listening. */
  stop(): Promise<void>;
}

export async function listenGuarded(
  server: Server,
  options: GuardedListenOptions,
  handle: (request: IncomingMessage, response: ServerResponse, guard: RequestGuard) => Promise<void>,
  fail: (response: ServerResponse, error: unknown) => void,
): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  // The guard knows the port only once the server listens (`--port 0`); nothing is answered before.
  const guard = new RequestGuard({ token: options.token, host: options.host, port });
  for (const name of options.extraHosts ?? []) guard.allowHost(name);
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    void handle(request, response, guard).catch((error: unknown) => fail(response, error));
  });
  return {
    port,
    shownHost: options.host.includes(":") ? `[${options.host}]` : options.host,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
