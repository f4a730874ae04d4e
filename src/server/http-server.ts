/**
 * `cairn serve`'s HTTP(S) server: every request passes the guard (host,
 * origin, token), then goes to the API, the OpenAPI description or the web
 * UI's files. `GET /?token=...` trades the token for a cookie.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { apiRoutes, type RouteContext, type RouteResult } from "./api-routes.js";
import { openApiDocument } from "./openapi.js";
import { listenGuarded } from "./guarded-listen.js";
import { type RequestGuard, tokenCookie } from "./request-guard.js";
import { serveWebFile } from "./web-files.js";
import { RequestError, type TaskRegistry } from "./task-registry.js";

const maxBodyBytes = 1 << 20;

export interface CairnServerOptions {
  registry: TaskRegistry;
  host: string;
  port: number;
  token: string;
  tls?: { cert: Buffer; key: Buffer };
  /** More `Host` names the server answers to (its addresses beyond loopback). */
  extraHosts?: string[];
  /** `GET /api/fleet`: the fleet's queue (only with `--redis`). */
  fleet?: () => Promise<unknown>;
}

export interface RunningServer {
  /** The base URL, without the token. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startCairnServer(options: CairnServerOptions): Promise<RunningServer> {
  const server: Server = options.tls === undefined ? createHttpServer() : createHttpsServer({ cert: options.tls.cert, key: options.tls.key });
  const listening = await listenGuarded(server, options, (request, response, guard) => handle(request, response, options, guard), fail);
  return {
    url: `${options.tls === undefined ? "http" : "https"}://${listening.shownHost}:${listening.port}`,
    port: listening.port,
    close: async () => {
      await options.registry.close();
      await listening.stop();
    },
  };
}

async function handle(request: IncomingMessage, response: ServerResponse, options: CairnServerOptions, guard: RequestGuard): Promise<void> {
  const url = new URL(request.url ?? "/", "http://server");
  const verdict = guard.check(request, url);
  if (!verdict.ok) return send(response, verdict.status, { error: verdict.reason });
  // The first page load trades the token in the address for a cookie, and drops it from the address.
  if (request.method === "GET" && url.searchParams.has("token") && !url.pathname.startsWith("/api/")) {
    const secure = options.tls === undefined ? "" : "; Secure";
    response.writeHead(303, { location: url.pathname, "set-cookie": `${tokenCookie}=${guard.tokenOf(request, url)}; HttpOnly; SameSite=Strict; Path=/${secure}`, "cache-control": "no-store" });
    response.end();
    return;
  }
  if (url.pathname === "/api/openapi.json" && request.method === "GET") return send(response, 200, openApiDocument);
  if (url.pathname === "/api/fleet" && request.method === "GET") {
    if (options.fleet === undefined) return send(response, 404, { error: "this server has no fleet: start it with --redis URL" });
    return send(response, 200, await options.fleet());
  }
  if (url.pathname.startsWith("/api/")) return route(request, response, url, options.registry);
  if (request.method !== "GET") return send(response, 405, { error: `${request.method ?? "?"} is not allowed here` });
  return serveWebFile(url.pathname, response);
}

async function route(request: IncomingMessage, response: ServerResponse, url: URL, registry: TaskRegistry): Promise<void> {
  let methodMismatch = false;
  for (const candidate of apiRoutes) {
    const match = candidate.pattern.exec(url.pathname);
    if (match === null) continue;
    if (candidate.method !== request.method) {
      methodMismatch = true;
      continue;
    }
    const context: RouteContext = {
      request,
      response,
      url,
      registry,
      params: match.slice(1).map((part) => decodeURIComponent(part)),
      body: () => readJson(request),
      client: clientName(request),
    };
    return reply(response, await candidate.handle(context));
  }
  if (methodMismatch) return send(response, 405, { error: `${request.method ?? "?"} is not allowed on ${url.pathname}` });
  return send(response, 404, { error: `no such endpoint: ${url.pathname} (see /api/openapi.json)` });
}

function reply(response: ServerResponse, result: RouteResult): void {
  if (result === undefined) return;
  if ("text" in result) {
    response.writeHead(result.status, { "content-type": result.type, "cache-control": "no-store" });
    response.end(result.text);
    return;
  }
  send(response, result.status, result.body);
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  response.end(JSON.stringify(body));
}

function fail(response: ServerResponse, error: unknown): void {
  if (error instanceof RequestError) return send(response, error.status, { error: error.message });
  send(response, 500, { error: `the server failed: ${error instanceof Error ? error.message : String(error)}` });
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) throw new RequestError(400, `the body is larger than ${maxBodyBytes} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new RequestError(400, "the body is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new RequestError(400, "the body must be a JSON object");
  return parsed as Record<string, unknown>;
}

/** Who answered, as other clients are told: the client's own name (`X-Cairn-Client`) or its address. */
function clientName(request: IncomingMessage): string {
  const named = request.headers["x-cairn-client"];
  if (typeof named === "string" && /^[\w .@:-]{1,64}$/.test(named)) return named;
  return `${request.socket.remoteAddress ?? "?"}:${request.socket.remotePort ?? "?"}`;
}
