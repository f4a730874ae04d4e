import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReplayServer {
  url: string;
  /** Request bodies received, parsed. */
  bodies: unknown[];
  close(): Promise<void>;
}

export function recording(name: string): Buffer {
  return readFileSync(new URL(`./recordings/${name}`, import.meta.url));
}

/**
 * Serves a recorded event stream byte for byte to any POST (given several, request N gets
 * stream N and later requests the last one), written in small pieces (cutting
 * lines, JSON and multi-byte characters) so the SDK's stream decoder and our translators see the
 * splits a real network produces.
 */
export async function startReplayServer(streams: Buffer | Buffer[], pieceBytes = 7): Promise<ReplayServer> {
  const queue = Array.isArray(streams) ? streams : [streams];
  const bodies: unknown[] = [];
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      bodies.push(JSON.parse(Buffer.concat(parts).toString("utf8")));
      const stream = queue[Math.min(bodies.length, queue.length) - 1] ?? Buffer.alloc(0);
      response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
      void (async () => {
        for (let start = 0; start < stream.length; start += pieceBytes) {
          await new Promise<void>((resolve) => response.write(stream.subarray(start, start + pieceBytes), () => resolve()));
        }
        response.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
