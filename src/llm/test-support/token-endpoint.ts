/**
 * A real token endpoint on loopback for the cloud credential tests: an HTTP (or, with a
 * certificate, HTTPS) server that logs each request (path and form fields) and answers it as
 * the test's `answer` says. It stands in for Google's STS and Microsoft Entra ID, which the
 * official libraries reach by the URL a credentials file or AZURE_AUTHORITY_HOST names.
 */
import { createServer as createHttpServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";

export interface TokenRequest {
  method: string;
  path: string;
  /** The form fields of a POST (`application/x-www-form-urlencoded`), or its JSON fields. */
  form: Record<string, string>;
}

export interface TokenAnswer {
  status?: number;
  body: unknown;
}

export interface TokenEndpoint {
  /** `http://127.0.0.1:PORT` or `https://127.0.0.1:PORT`. */
  url: string;
  requests: TokenRequest[];
  close(): Promise<void>;
}

function parseForm(text: string, type: string | undefined): Record<string, string> {
  if (text === "") return {};
  if (type?.includes("json") === true) return JSON.parse(text) as Record<string, string>;
  return Object.fromEntries(new URLSearchParams(text));
}

export async function startTokenEndpoint(options: { answer: (request: TokenRequest, url: string) => TokenAnswer; tls?: { cert: string; key: string } }): Promise<TokenEndpoint> {
  const requests: TokenRequest[] = [];
  let url = "";
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      const logged = { method: request.method ?? "GET", path: request.url ?? "/", form: parseForm(Buffer.concat(parts).toString("utf8"), request.headers["content-type"]) };
      requests.push(logged);
      const answer = options.answer(logged, url);
      const text = JSON.stringify(answer.body);
      response.writeHead(answer.status ?? 200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      response.end(text);
    });
  };
  const server = options.tls === undefined ? createHttpServer(handle) : createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `${options.tls === undefined ? "http" : "https"}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
