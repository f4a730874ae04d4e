import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import type { Socket } from "node:net";

/** What the proxy was asked for: a CONNECT tunnel (`host:port`) or a forwarded absolute URL. */
export interface ProxiedRequest {
  method: string;
  target: string;
}

export interface RecordingProxy {
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy on 127.0.0.1 that records every request and forwards it: CONNECT tunnels (as
 * undici's proxy agents open them) and plain absolute-form requests. Every host name is served by
 * 127.0.0.1, so a test can name a server no resolver knows (only the proxy can reach it). Tests only.
 */
export async function startRecordingProxy(): Promise<RecordingProxy> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((incoming, outgoing) => {
    requests.push({ method: incoming.method ?? "?", target: incoming.url ?? "" });
    const target = new URL(incoming.url ?? "");
    const forwarded = httpRequest({ host: "127.0.0.1", port: target.port, path: `${target.pathname}${target.search}`, method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  server.on("connect", (incoming, clientSocket: Socket, head: Buffer) => {
    requests.push({ method: "CONNECT", target: incoming.url ?? "" });
    const port = (incoming.url ?? "").split(":").at(-1);
    const upstream = connect(Number(port), "127.0.0.1", () => {
      clientSocket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    for (const socket of [upstream, clientSocket]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        upstream.destroy();
        clientSocket.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
