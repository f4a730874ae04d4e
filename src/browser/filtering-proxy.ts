/**
 * The browser's only way out: an HTTP proxy on loopback that asks the
 * request policy about every request Chromium makes (pages, resources,
 * redirects, WebSockets, through CONNECT for https) and refuses what it
 * refuses. Playwright's request interception alone is not enough: it sees only
 * the first address of a redirect chain, and a page on an allowed domain could
 * redirect anywhere. Chromium is started with this proxy for every host,
 * loopback included, so nothing bypasses it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { forwardRequest, openTunnel, splitAuthority } from "../security/proxy-forwarding.js";

/** Why a request may not be made, or undefined when it may. */
export type RequestPolicy = (url: string) => Promise<string | undefined>;

export interface FilteringProxy {
  /** `http://127.0.0.1:<port>` */
  readonly address: string;
  close(): Promise<void>;
}

function blocked(response: ServerResponse, url: string, reason: string): void {
  response.writeHead(403, { "content-type": "text/plain; charset=utf-8", connection: "close" });
  response.end(`cairn blocked ${url}: ${reason}\n`);
}

export async function startFilteringProxy(options: { policy: RequestPolicy; onBlocked: (url: string, reason: string) => void }): Promise<FilteringProxy> {
  const refusal = async (url: string): Promise<string | undefined> => {
    try {
      return await options.policy(url);
    } catch (error) {
      return `the request could not be checked (${error instanceof Error ? error.message : String(error)})`;
    }
  };
  const sockets = new Set<Socket>();

  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      let target: URL;
      try {
        target = new URL(request.url ?? "");
      } catch {
        blocked(response, request.url ?? "", "not an absolute address");
        return;
      }
      const reason = target.protocol === "http:" ? await refusal(target.href) : `only http and https are allowed, not ${target.protocol}`;
      if (reason !== undefined) {
        options.onBlocked(target.href, reason);
        blocked(response, target.href, reason);
        return;
      }
      forwardRequest({ request, response, url: target, proxyName: "cairn's browser proxy" });
    })();
  });

  // https and WebSockets: a tunnel to host:port, after the host is checked (the path is encrypted; rules name domains).
  server.on("connect", (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    void (async () => {
      const target = splitAuthority(request.url ?? "");
      const shown = `https://${request.url ?? ""}/`;
      const reason = target === undefined ? "not a host and port" : await refusal(`https://${target.host.includes(":") ? `[${target.host}]` : target.host}:${target.port}/`);
      if (target === undefined || reason !== undefined) {
        options.onBlocked(shown, reason ?? "not a host and port");
        client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\ncairn blocked ${shown}: ${reason ?? ""}\n`);
        return;
      }
      openTunnel({ client, head, host: target.host, port: target.port, sockets, proxyName: "cairn's browser proxy" });
    })();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    address: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
