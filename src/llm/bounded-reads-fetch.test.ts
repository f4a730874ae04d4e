import { createServer } from "node:http";
import type { Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { boundedReadsFetch } from "./bounded-reads-fetch.js";

const events = (count: number): string => Array.from({ length: count }, (_, index) => `data: {"index":${index},"text":"${"x".repeat(100)}"}\n\n`).join("");

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => {
    if (server === undefined) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
  server = undefined;
});

/** A loopback server whose routes answer with one large write each. */
async function serve(route: (path: string, response: ServerResponse) => void): Promise<string> {
  server = createServer((request, response) => route(request.url ?? "/", response));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function reads(body: ReadableStream<Uint8Array> | null): Promise<{ sizes: number[]; text: string }> {
  const sizes: number[] = [];
  const parts: Buffer[] = [];
  for await (const chunk of body!) {
    sizes.push(chunk.length);
    parts.push(Buffer.from(chunk));
  }
  return { sizes, text: Buffer.concat(parts).toString("utf8") };
}

describe("the OpenAI SDK gets its event stream in small reads", () => {
  const stream = events(600); // about 70 KB, written at once

  it("cuts a successful event stream into reads of at most 1 KiB, same bytes in the same order", async () => {
    const url = await serve((_, response) => {
      response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
      response.end(stream);
    });
    const plain = await reads((await fetch(url)).body);
    expect(Math.max(...plain.sizes)).toBeGreaterThan(1024); // what the SDK would get without it
    const response = await boundedReadsFetch()(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const bounded = await reads(response.body);
    expect(Math.max(...bounded.sizes)).toBeLessThanOrEqual(1024);
    expect(bounded.text).toBe(stream);
  });

  it("leaves other answers alone: JSON, and an error status even when it is an event stream", async () => {
    const url = await serve((path, response) => {
      response.writeHead(path === "/json" ? 200 : 500, { "content-type": path === "/json" ? "application/json" : "text/event-stream" });
      response.end(path === "/json" ? JSON.stringify({ text: stream }) : stream);
    });
    const json = await boundedReadsFetch()(`${url}/json`);
    expect(((await json.json()) as { text: string }).text).toBe(stream);
    const failed = await boundedReadsFetch()(`${url}/failed`);
    expect(failed.status).toBe(500);
    expect(Math.max(...(await reads(failed.body)).sizes)).toBeGreaterThan(1024);
  });

  it("passes on a connection cut mid-stream as the same error, and a cancel to the server", async () => {
    let closed: Promise<void> = Promise.resolve();
    const url = await serve((path, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(stream);
      if (path === "/cut") setTimeout(() => response.socket?.destroy(), 20);
      else closed = new Promise((resolve) => response.on("close", () => resolve()));
    });
    await expect(reads((await boundedReadsFetch()(`${url}/cut`)).body)).rejects.toThrow(/terminated/);
    const response = await boundedReadsFetch()(`${url}/cancel`);
    const reader = response.body!.getReader();
    expect((await reader.read()).value!.length).toBeLessThanOrEqual(1024);
    await reader.cancel();
    await closed; // the server saw the client go: the request was not left open
  });

  it("goes through the fetch it wraps (the proxy's, when one is set)", async () => {
    const url = await serve((_, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(stream);
    });
    const seen: string[] = [];
    const wrapped: typeof fetch = (input, init) => {
      seen.push(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      return fetch(input, init);
    };
    expect((await reads((await boundedReadsFetch(wrapped)(url)).body)).text).toBe(stream);
    expect(seen).toEqual([url]);
  });
});
