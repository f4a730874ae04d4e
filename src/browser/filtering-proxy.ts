/**
 * The browser's only way out: an HTTP proxy on loopback that asks the
 * request policy about every request Chromium makes (pages, resources,
 * redirects, WebSockets, through CONNECT for https) and refuses what it
 * refuses. Playwright's request interception alone is not enough: it sees only
 * the first address of a redirect chain, and a page on an allowed domain could
 * redirect anywhere. Chromium is started with this proxy for every host,
 * loopback included, so nothing bypasses it.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";

/** Why a request may not be made, or undefined when it may. */
export type RequestPolicy = (url: string) => Promise<string | undefined>;

export interface FilteringProxy {
  /** `http://127.0.0.1:<port>` */
  readonly address: string;
  close(): Promise<void>;
}

/** Headers only for the proxy, never forwarded (RFC 9110 hop-by-hop fields too). */
const hopByHop = new Set(["proxy-connection", "proxy-authorization", "connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade"]);

function blocked(response: ServerResponse, url: string, reason: string): void {
  response.writeHead(403, { "content-type": "text/plain; charset=utf-8", connection: "close" });
  response.end(`cairn blocked ${url}: ${reason}\n`);
}

/** Host and port of a CONNECT target (`example.com:443`, `[::1]:8443`). */
function connectTarget(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(authority);
  if (match === null) return undefined;
  return { host: (match[1] ?? "").replace(/^\[|\]$/g, ""), port: Number(match[2]) };
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
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined && !hopByHop.has(name.toLowerCase())) headers[name] = value;
      }
      const upstream = httpRequest(
        { host: target.hostname.replace(/^\[|\]$/g, ""), port: target.port === "" ? 80 : Number(target.port), path: `${target.pathname}${target.search}`, method: request.method, headers },
        (answer) => {
          const answerHeaders: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(answer.headers)) {
            if (value !== undefined && !hopByHop.has(name.toLowerCase())) answerHeaders[name] = value;
          }
          response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answerHeaders);
          answer.pipe(response);
        },
      );
      upstream.on("error", (error) => {
        if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
        response.end(`cairn's browser proxy could not reach ${target.host}: ${error.message}\n`);
      });
      request.pipe(upstream);
    })();
  });

  // https and WebSockets: a tunnel to host:port, after the host is checked (the path is encrypted; rules name domains).
  server.on("connect", (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    void (async () => {
      const target = connectTarget(request.url ?? "");
      const shown = `https://${request.url ?? ""}/`;
      const reason = target === undefined ? "not a host and port" : await refusal(`https://${target.host.includes(":") ? `[${target.host}]` : target.host}:${target.port}/`);
      if (target === undefined || reason !== undefined) {
        options.onBlocked(shown, reason ?? "not a host and port");
        client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\ncairn blocked ${shown}: ${reason ?? ""}\n`);
        return;
      }
      const upstream = connect(target.port, target.host, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on("close", () => sockets.delete(upstream));
      upstream.on("error", () => client.destroy());
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
