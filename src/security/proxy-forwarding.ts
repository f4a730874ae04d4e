/**
 * What cairn's two HTTP proxies share once a request is allowed: the sandbox's
 * network proxy (network-proxy.ts) and the browser's filtering proxy
 * (src/browser/filtering-proxy.ts). A plain request is sent on without the
 * headers meant for the proxy or for one hop (RFC 9110), both ways; a CONNECT
 * becomes a tunnel to host:port.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";

/** Headers only for the proxy, never forwarded (RFC 9110 hop-by-hop fields too). */
const hopByHop = new Set(["proxy-connection", "proxy-authorization", "connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade"]);

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !hopByHop.has(name.toLowerCase()) && !name.toLowerCase().startsWith("proxy-")) kept[name] = value;
  return kept;
}

/** Host and port of `host:port` or `[v6]:port` (a CONNECT target); without a port, `defaultPort` (undefined when there is none). */
export function splitAuthority(authority: string, defaultPort?: number): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(authority);
  if (match === null) return undefined;
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  return port === undefined ? undefined : { host: (match[1] ?? authority).replace(/^\[(.*)\]$/, "$1"), port };
}

/** Sends an allowed plain request on (to `connectTo`, default the URL's host), and its answer back; `proxyName` says who could not reach it. */
export function forwardRequest(options: { request: IncomingMessage; response: ServerResponse; url: URL; connectTo?: string; proxyName: string }): void {
  const { request, response, url } = options;
  const upstream = httpRequest(
    {
      host: options.connectTo ?? url.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: url.port === "" ? 80 : Number(url.port),
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: forwardable(request.headers),
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardable(answer.headers));
      answer.pipe(response);
    },
  );
  upstream.on("error", (error) => {
    if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
    response.end(`${options.proxyName} could not reach ${url.host}: ${error.message}\n`);
  });
  request.pipe(upstream);
}

/** Opens the tunnel of an allowed CONNECT; a target that cannot be reached gets a 502 that says why. */
export function openTunnel(options: { client: Socket; head: Buffer; host: string; port: number; connectTo?: string; sockets: Set<Socket>; proxyName: string }): void {
  const { client, head, sockets } = options;
  const upstream = connect(options.port, options.connectTo ?? options.host, () => {
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  sockets.add(upstream);
  upstream.on("close", () => sockets.delete(upstream));
  upstream.on("error", (error) => {
    if (client.writable && upstream.bytesRead === 0)
      client.end(`HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${options.proxyName} could not reach ${options.host}: ${error.message}\n`);
    else client.destroy();
  });
  client.on("close", () => upstream.destroy());
}
