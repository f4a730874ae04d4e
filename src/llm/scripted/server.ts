import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createHash, randomBytes } from "node:crypto";
import type { Scenario, ScenarioTurn } from "./scenario.js";
import { ConversationRouter, firstUserTextOfBody } from "./conversation-router.js";
import { anthropicErrorBody, anthropicFrames, anthropicStreamError } from "./anthropic-stream.js";
import { openAiErrorBody, openAiFrames, openAiStreamError } from "./openai-stream.js";
import { responsesFrames, responsesStreamError } from "./responses-stream.js";
import { geminiErrorBody, geminiFrames, geminiStreamError } from "./gemini-stream.js";
import { bedrockConverseFrames, bedrockErrorResponse, bedrockInvokeFrames, bedrockStreamError } from "./bedrock-stream.js";

type Api = "anthropic" | "openai" | "openai-responses" | "gemini" | "bedrock-invoke" | "bedrock-converse";

/** Bedrock and Gemini ask for a stream by their path, and Bedrock answers in binary event-stream messages. */
const pathStreamed: ReadonlySet<Api> = new Set<Api>(["gemini", "bedrock-invoke", "bedrock-converse"]);
const isBedrock = (api: Api | undefined): boolean => api === "bedrock-invoke" || api === "bedrock-converse";

/** What one request received, for the request log and for tests. */
export interface LoggedRequest {
  index: number;
  method: string;
  path: string;
  body: unknown;
  /** Set for a request answered by a scenario route: the route's position in `routes`. */
  route?: number;
  /** How the request authenticated (the scheme only, never the secret): `api-key`, `bearer`, `aws-sigv4`, `x-api-key`, `none`. */
  auth?: string;
  /** A bearer token's `tokenDigest`: which token came, without keeping it. */
  bearerDigest?: string;
}

/** How far the answer to one request has gone. */
export interface TurnProgress {
  /** SSE frames written (each `event:`/`data:` block, including pings and `[DONE]`). */
  chunksSent: number;
  /** The whole answer was written and the response ended. */
  completed: boolean;
  /** The client closed the connection before the answer ended (e.g. it aborted). */
  closedByClient: boolean;
}

export interface ScriptedServerOptions {
  scenario: Scenario;
  /** 0 or absent: any free port. */
  port?: number;
  /** Every request is appended to this file as one JSON line. */
  logFile?: string;
}

export interface ScriptedServer {
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: LoggedRequest[];
  chunksSent(turnIndex: number): number;
  progress(turnIndex: number): TurnProgress;
  /** Resolves once turn `turnIndex` has sent at least `count` frames. */
  waitForChunks(turnIndex: number, count: number): Promise<void>;
  /** Resolves once the client has closed the connection of turn `turnIndex` before it ended. */
  waitForClientClose(turnIndex: number): Promise<void>;
  close(): Promise<void>;
}

function apiOf(path: string): Api | undefined {
  const pathname = path.split("?")[0] ?? "";
  if (pathname.endsWith("/messages") || /\/publishers\/anthropic\/models\/[^/]+:streamRawPredict$/.test(pathname)) return "anthropic";
  if (pathname.endsWith("/chat/completions")) return "openai";
  if (pathname.endsWith("/responses")) return "openai-responses";
  if (/\/models\/[^/]+:streamGenerateContent$/.test(pathname)) return "gemini";
  if (/\/model\/[^/]+\/invoke-with-response-stream$/.test(pathname)) return "bedrock-invoke";
  if (/\/model\/[^/]+\/converse-stream$/.test(pathname)) return "bedrock-converse";
  return undefined;
}

/** The first 16 hex digits of a token's SHA-256: enough to tell which token a request carried, useless as the token. */
export function tokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex").slice(0, 16);
}

/** What the request log keeps of how a request authenticated: the scheme, and a bearer token's digest. */
function authOf(request: IncomingMessage): Pick<LoggedRequest, "auth" | "bearerDigest"> {
  const bearer = /^bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1];
  return { auth: authScheme(request), ...(bearer === undefined ? {} : { bearerDigest: tokenDigest(bearer) }) };
}

/** The scheme a request authenticated with; the secret itself is never kept. */
function authScheme(request: IncomingMessage): string {
  const authorization = request.headers.authorization ?? "";
  // The credential scope's region and service (`.../20261203/eu-west-1/bedrock/aws4_request`), never the key id.
  if (authorization.startsWith("AWS4-HMAC-SHA256")) return `aws-sigv4 ${/Credential=[^/]+\/\d+\/([^/]+)\/([^/]+)\//.exec(authorization)?.slice(1).join(" ") ?? ""}`.trim();
  if (/^bearer /i.test(authorization)) return "bearer";
  if (request.headers["api-key"] !== undefined) return "api-key";
  if (request.headers["x-api-key"] !== undefined) return "x-api-key";
  if (request.headers["x-goog-api-key"] !== undefined) return "x-goog-api-key";
  return "none";
}

/** Azure OpenAI's paths (`/openai/...`) as Azure answers them: no credentials, 401; no api-version outside /openai/v1, 400. */
function cloudRefusal(request: IncomingMessage, path: string): { status: number; message: string } | undefined {
  if (!path.startsWith("/openai/")) return undefined;
  if (authScheme(request) === "none") return { status: 401, message: "Access denied due to invalid subscription key or wrong API endpoint." };
  const query = new URLSearchParams(path.split("?")[1] ?? "");
  if (!path.startsWith("/openai/v1/") && !query.has("api-version")) return { status: 400, message: "Missing required query parameter: api-version" };
  return undefined;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    request.on("error", reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "request-id": `req_${randomBytes(12).toString("hex")}`,
    ...headers,
  });
  response.end(text);
}

function errorBody(api: Api | undefined, status: number, message: string, headers: Record<string, string> = {}): unknown {
  if (isBedrock(api)) return bedrockErrorResponse(status, message).body;
  if (api === "gemini") return geminiErrorBody(status, message, headers);
  // The Responses API answers errors in the same shape as Chat Completions.
  return api === "anthropic" || api === undefined ? anthropicErrorBody(status, message) : openAiErrorBody(status, message);
}

function framesFor(api: Api, turn: ScenarioTurn, options: { body: Record<string, unknown>; model: string; chunkSize: number; includeUsage: boolean }): Array<string | Buffer> {
  const { model, chunkSize } = options;
  if (api === "anthropic") return anthropicFrames(turn, { model, chunkSize });
  if (api === "bedrock-invoke") return bedrockInvokeFrames(anthropicFrames(turn, { model, chunkSize }));
  if (api === "bedrock-converse") return bedrockConverseFrames(turn, { chunkSize });
  if (api === "openai") return openAiFrames(turn, { model, chunkSize, includeUsage: options.includeUsage });
  if (api === "gemini") return geminiFrames(turn, { model, chunkSize });
  const include = options.body["include"];
  const includeEncryptedReasoning = Array.isArray(include) && include.includes("reasoning.encrypted_content");
  return responsesFrames(turn, { model, chunkSize, includeEncryptedReasoning });
}

function streamErrorFor(api: Api, type: string, message: string): string | Buffer {
  if (isBedrock(api)) return bedrockStreamError(type, message);
  if (api === "anthropic") return anthropicStreamError(type, message);
  if (api === "gemini") return geminiStreamError(type, message);
  return api === "openai" ? openAiStreamError(type, message) : responsesStreamError(type, message);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Starts cairn's scripted LLM server on 127.0.0.1; see docs/scripted-llm.md. */
export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  const { scenario } = options;
  const requests: LoggedRequest[] = [];
  const progressByTurn = new Map<number, TurnProgress>();
  const waiters = new Set<() => void>();
  let nextIndex = 0;
  const router = new ConversationRouter(scenario);
  const routeCounts = new Map<number, number>();
  let routedRequests = 0;

  const progressOf = (turnIndex: number): TurnProgress => {
    let found = progressByTurn.get(turnIndex);
    if (!found) {
      found = { chunksSent: 0, completed: false, closedByClient: false };
      progressByTurn.set(turnIndex, found);
    }
    return found;
  };
  const notify = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  const waitUntil = (condition: () => boolean): Promise<void> =>
    new Promise((resolve) => {
      if (condition()) {
        resolve();
        return;
      }
      const waiter = (): void => {
        if (condition()) {
          waiters.delete(waiter);
          resolve();
        }
      };
      waiters.add(waiter);
    });

  async function stream(api: Api, turn: ScenarioTurn, body: Record<string, unknown>, index: number, response: ServerResponse) {
    const progress = progressOf(index);
    const pathModel = api === "gemini" ? /\/models\/([^/:]+):/.exec(response.req.url ?? "")?.[1] : isBedrock(api) ? decodeURIComponent(/\/model\/([^/]+)\//.exec(response.req.url ?? "")?.[1] ?? "") : undefined;
    const model = pathModel ?? (typeof body["model"] === "string" ? body["model"] : (scenario.model ?? "scripted-model"));
    const chunkSize = turn.chunkSize ?? scenario.chunkSize ?? 16;
    const delayMs = turn.delayMs ?? scenario.delayMs ?? 0;
    const streamOptions = body["stream_options"];
    const includeUsage = typeof streamOptions === "object" && streamOptions !== null && (streamOptions as Record<string, unknown>)["include_usage"] === true;
    const frames = framesFor(api, turn, { body, model, chunkSize, includeUsage });

    let droppedByServer = false;
    response.on("close", () => {
      if (!response.writableFinished && !droppedByServer) {
        progress.closedByClient = true;
        notify();
      }
    });
    if (turn.dropAfterChunks === 0) {
      droppedByServer = true;
      response.socket?.destroy();
      return;
    }
    if (turn.stallAfterChunks === 0) return;

    response.writeHead(200, {
      "content-type": isBedrock(api) ? "application/vnd.amazon.eventstream" : "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "request-id": `req_${randomBytes(12).toString("hex")}`,
      "x-request-id": `req_${randomBytes(12).toString("hex")}`,
    });
    response.flushHeaders();
    for (const [position, frame] of frames.entries()) {
      if (position > 0 && delayMs > 0) await pause(delayMs);
      if (response.destroyed || progress.closedByClient) return;
      if (turn.streamError?.afterChunks === position) {
        const { type, message } = turn.streamError;
        response.end(streamErrorFor(api, type, message));
        return;
      }
      if (turn.dropAfterChunks === position) {
        droppedByServer = true;
        response.socket?.destroy();
        return;
      }
      if (turn.stallAfterChunks === position) return;
      // Wait until the frame is handed to the kernel, so a drop right after it still delivers it.
      await new Promise<void>((resolve) => response.write(frame, () => resolve()));
      progress.chunksSent += 1;
      notify();
    }
    response.end(() => {
      progress.completed = true;
      notify();
    });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url ?? "/";
    const api = apiOf(path);
    const text = await readBody(request);
    // Google's metadata server (GCE_METADATA_HOST pointed here): the instance's service-account token.
    if (request.method === "GET" && path.startsWith("/computeMetadata/v1/")) {
      const token = path.split("?")[0]?.endsWith("/token") === true;
      sendJson(response, 200, token ? { access_token: `ya29.scripted-${randomBytes(6).toString("hex")}`, expires_in: 3600, token_type: "Bearer" } : {}, { "metadata-flavor": "Google" });
      return;
    }
    const refusal = cloudRefusal(request, path);
    if (api !== undefined && refusal !== undefined) {
      sendJson(response, refusal.status, errorBody(api, refusal.status, refusal.message));
      return;
    }
    if (request.method !== "POST" || api === undefined) {
      sendJson(
        response,
        404,
        errorBody(
          api,
          404,
          `scripted LLM server: no route for ${request.method ?? "?"} ${path}; use POST /v1/messages, /v1/chat/completions, /v1/responses, /v1beta/models/{model}:streamGenerateContent?alt=sse, /model/{model}/invoke-with-response-stream or /model/{model}/converse-stream`,
        ),
      );
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      sendJson(response, 400, errorBody(api, 400, "scripted LLM server: the request body is not valid JSON"));
      return;
    }
    const routeIndex = scenario.routes?.findIndex((route) => text.includes(route.bodyIncludes)) ?? -1;
    const route = routeIndex === -1 ? undefined : scenario.routes?.[routeIndex];
    if (route !== undefined) {
      // A routed request has its own turns; its progress is kept under negative indexes.
      const position = routeCounts.get(routeIndex) ?? 0;
      routeCounts.set(routeIndex, position + 1);
      routedRequests += 1;
      const logged: LoggedRequest = { index: position, method: request.method, path, body, route: routeIndex, ...authOf(request) };
      requests.push(logged);
      if (options.logFile !== undefined) appendFileSync(options.logFile, `${JSON.stringify(logged)}\n`);
      const turn = route.turns[position];
      if (turn === undefined) {
        sendJson(response, 400, errorBody(api, 400, `scripted LLM server: route ${routeIndex} has ${route.turns.length} turns but this is its request ${position + 1}; add a turn for it`));
        return;
      }
      await answer(api, turn, body, -routedRequests, response);
      return;
    }
    const index = nextIndex;
    nextIndex += 1;
    const logged: LoggedRequest = { index, method: request.method, path, body, ...authOf(request) };
    requests.push(logged);
    if (options.logFile !== undefined) appendFileSync(options.logFile, `${JSON.stringify(logged)}\n`);
    progressOf(index);

    const routed = router.next(firstUserTextOfBody(body));
    const turn = routed.turn;
    if (turn === undefined) {
      const where = routed.conversation === "main" ? "the scenario has" : `the scenario's ${routed.conversation} has`;
      sendJson(response, 400, errorBody(api, 400, `scripted LLM server: ${where} ${routed.turnCount} turns but this is ${routed.conversation === "main" ? "" : "its "}request ${routed.position + 1}; add a turn for it`));
      return;
    }
    await answer(api, turn, body, index, response);
  }

  async function answer(api: Api, turn: ScenarioTurn, body: unknown, index: number, response: ServerResponse): Promise<void> {
    if (turn.error !== undefined) {
      const { status } = turn.error;
      // Bedrock names its exception in a header; the scenario's headers come last.
      const headers = { ...(isBedrock(api) ? bedrockErrorResponse(status, "").headers : {}), ...turn.error.headers };
      const errorResponse = turn.error.body ?? errorBody(api, status, `scripted error ${status}`, headers);
      sendJson(response, status, errorResponse, headers);
      return;
    }
    // Gemini and Bedrock ask for a stream by their path (:streamGenerateContent, invoke-with-response-stream, converse-stream), the others by a body field.
    if (typeof body !== "object" || body === null || (!pathStreamed.has(api) && (body as Record<string, unknown>)["stream"] !== true)) {
      sendJson(response, 400, errorBody(api, 400, 'scripted LLM server: only streaming requests ("stream": true) are answered'));
      return;
    }
    await stream(api, turn, body as Record<string, unknown>, index, response);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        sendJson(response, 500, anthropicErrorBody(500, `scripted LLM server failed: ${String(error)}`));
      } else {
        response.destroy();
      }
    });
  });
  // Longer than clients keep idle sockets, so a reused socket is never closed under a request.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    chunksSent: (turnIndex) => progressOf(turnIndex).chunksSent,
    progress: (turnIndex) => ({ ...progressOf(turnIndex) }),
    waitForChunks: (turnIndex, count) => waitUntil(() => progressOf(turnIndex).chunksSent >= count),
    waitForClientClose: (turnIndex) => waitUntil(() => progressOf(turnIndex).closedByClient),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Stalled answers keep their sockets open on purpose; close must not wait for them.
        server.closeAllConnections();
      }),
  };
}
