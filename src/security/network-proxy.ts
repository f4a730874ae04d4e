/**
 * cairn's network proxy for sandboxed commands (#30): an HTTP proxy (CONNECT
 * tunnels for https and anything else, plain HTTP requests by absolute URL)
 * listening on a unix socket that is bound into the sandbox. The command has no
 * network of its own (bubblewrap's --unshare-net); a bridge inside its network
 * namespace (proxy-bridge.ts) forwards 127.0.0.1:PORT to this socket. Each
 * request is decided by host (network-domains.ts) when it arrives: refused
 * hosts get a 403 that says why and are remembered, so the tool result can
 * name them and the user can allow them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { rmSync } from "node:fs";
import type { DomainDecision } from "./network-domains.js";
import { forwardRequest, openTunnel, splitAuthority } from "./proxy-forwarding.js";

export interface DomainProxy {
  socketPath: string;
  /** Hosts refused so far, in the order first refused. */
  refused(): string[];
  close(): void;
}

export interface DomainProxyOptions {
  socketPath: string;
  decide(host: string): DomainDecision;
  /** Where to connect for a host (tests map names to loopback); default: the host itself, resolved by the system. */
  resolve?(host: string): string;
}

const refusalHeader = "x-cairn-refused";
const proxyName = "cairn's network proxy";

function refusalText(host: string, reason: string): string {
  return `cairn's network proxy refused ${host}: ${reason}. Only the hosts a Network(domain:…) rule allows can be reached from the sandbox.\n`;
}

export function startDomainProxy(options: DomainProxyOptions): DomainProxy {
  const refused: string[] = [];
  const sockets = new Set<Socket>();
  const target = (host: string) => options.resolve?.(host) ?? host;
  const judge = (host: string): DomainDecision => {
    const decision = options.decide(host);
    if (!decision.allowed && !refused.includes(host.toLowerCase())) refused.push(host.toLowerCase());
    return decision;
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(request.url ?? "");
    } catch {
      response.writeHead(400, { "content-type": "text/plain" }).end("cairn's network proxy takes absolute http:// addresses (or CONNECT).\n");
      return;
    }
    const decision = judge(url.hostname);
    if (!decision.allowed) {
      response.writeHead(403, { "content-type": "text/plain", [refusalHeader]: url.hostname }).end(refusalText(url.hostname, decision.reason));
      return;
    }
    forwardRequest({ request, response, url, connectTo: target(url.hostname.replace(/^\[(.*)\]$/, "$1")), proxyName });
  });

  server.on("connect", (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    const { host, port } = splitAuthority(request.url ?? "", 443) ?? { host: request.url ?? "", port: 443 };
    const decision = judge(host);
    if (!decision.allowed) {
      const body = refusalText(host, decision.reason);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n${refusalHeader}: ${host}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      return;
    }
    openTunnel({ client, head, host, port, connectTo: target(host), sockets, proxyName });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  rmSync(options.socketPath, { force: true });
  // A unix socket is bound at once: the bridge inside the sandbox can connect as soon as it starts.
  server.listen(options.socketPath);
  server.unref();
  return {
    socketPath: options.socketPath,
    refused: () => [...refused],
    close: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
      rmSync(options.socketPath, { force: true });
    },
  };
}
