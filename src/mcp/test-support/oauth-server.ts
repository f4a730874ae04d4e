/**
 * For tests: a real MCP server on loopback that requires OAuth bearer tokens,
 * with its own small authorization server following the MCP authorization spec
 * (RFC 9728 protected-resource metadata, RFC 8414 server metadata, RFC 7591
 * dynamic registration, PKCE S256, refresh tokens). Tokens can be expired or
 * revoked on cue, so tests need no clock.
 */
import { createHash, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

interface Client {
  client_id: string;
  redirect_uris: string[];
}

export interface OAuthMcpServer {
  url: string;
  issuer: string;
  /** Every access token given so far stops working (refresh tokens still do). */
  expireAccessTokens(): void;
  /** Access and refresh tokens both stop working: only a new sign-in helps. */
  revokeEverything(): void;
  readonly counts: { registrations: number; authorizations: number; refreshes: number; toolCalls: number };
  stop(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

function mcpServer(clientId: string, counts: OAuthMcpServer["counts"]): McpServer {
  const server = new McpServer({ name: "oauth-protected", version: "1.0.0" });
  server.registerTool("whoami", { description: "Says which OAuth client called it" }, () => {
    counts.toolCalls++;
    return { content: [{ type: "text", text: `signed in as ${clientId}` }] };
  });
  // Asks the user how bad the bug is while it runs (elicitation), as a tracker's form would.
  server.registerTool("file_bug", { description: "Files a bug in the tracker; asks the user for its severity" }, async () => {
    counts.toolCalls++;
    const answer = await server.server.elicitInput({
      message: "How bad is it?",
      requestedSchema: { type: "object", properties: { severity: { type: "string", title: "Severity", enum: ["low", "high"] } }, required: ["severity"] },
    });
    const filed = answer.action === "accept" ? `filed BUG-1 (${String(answer.content?.["severity"])})` : `not filed: the user answered ${answer.action}`;
    return { content: [{ type: "text", text: filed }] };
  });
  // For the user: a prompt (`/mcp__tracker__triage <bug>`) and a resource (`@tracker:tracker://bugs/open`).
  server.registerPrompt("triage", { description: "Triages a bug", argsSchema: { bug: z.string() } }, ({ bug }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Triage ${bug}: find its cause and say how bad it is.` } }],
  }));
  server.registerResource("open bugs", "tracker://bugs/open", { mimeType: "text/plain" }, () => ({
    contents: [{ uri: "tracker://bugs/open", text: "BUG-1 (high): the login page rejects every password" }],
  }));
  return server;
}

export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
  const clients = new Map<string, Client>();
  const codes = new Map<string, { clientId: string; challenge: string; redirectUri: string }>();
  const accessTokens = new Map<string, { clientId: string; valid: boolean }>();
  const refreshTokens = new Map<string, { clientId: string; valid: boolean }>();
  const counts = { registrations: 0, authorizations: 0, refreshes: 0, toolCalls: 0 };
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let origin = "";

  const issueTokens = (clientId: string): Record<string, unknown> => {
    const access = randomUUID();
    const refresh = randomUUID();
    accessTokens.set(access, { clientId, valid: true });
    refreshTokens.set(refresh, { clientId, valid: true });
    return { access_token: access, token_type: "Bearer", expires_in: 3600, refresh_token: refresh };
  };

  const token = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const form = new URLSearchParams(await readBody(request));
    const clientId = form.get("client_id") ?? "";
    if (!clients.has(clientId)) return json(response, 401, { error: "invalid_client" });
    if (form.get("grant_type") === "authorization_code") {
      const code = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      if (code === undefined || code.clientId !== clientId || code.challenge !== challenge || code.redirectUri !== form.get("redirect_uri")) {
        return json(response, 400, { error: "invalid_grant", error_description: "bad code, verifier or redirect_uri" });
      }
      return json(response, 200, issueTokens(clientId));
    }
    if (form.get("grant_type") === "refresh_token") {
      const refresh = refreshTokens.get(form.get("refresh_token") ?? "");
      if (refresh === undefined || !refresh.valid || refresh.clientId !== clientId) return json(response, 400, { error: "invalid_grant", error_description: "refresh token revoked" });
      counts.refreshes++;
      refresh.valid = false;
      return json(response, 200, issueTokens(clientId));
    }
    json(response, 400, { error: "unsupported_grant_type" });
  };

  const authorize = (url: URL, response: ServerResponse): void => {
    const client = clients.get(url.searchParams.get("client_id") ?? "");
    const redirectUri = url.searchParams.get("redirect_uri") ?? "";
    if (client === undefined || !client.redirect_uris.includes(redirectUri)) return json(response, 400, { error: "invalid_request" });
    if (url.searchParams.get("code_challenge_method") !== "S256") return json(response, 400, { error: "invalid_request", error_description: "PKCE S256 required" });
    counts.authorizations++;
    const code = randomUUID();
    codes.set(code, { clientId: client.client_id, challenge: url.searchParams.get("code_challenge") ?? "", redirectUri });
    const target = new URL(redirectUri);
    target.searchParams.set("code", code);
    const state = url.searchParams.get("state");
    if (state !== null) target.searchParams.set("state", state);
    response.writeHead(302, { location: target.href }).end();
  };

  const mcp = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const header = request.headers.authorization ?? "";
    const access = accessTokens.get(header.replace(/^Bearer /i, ""));
    if (access === undefined || !access.valid) {
      const challenge = `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
      return json(response, 401, { error: "invalid_token" }, { "www-authenticate": challenge });
    }
    const body = request.method === "POST" ? (JSON.parse(await readBody(request)) as unknown) : undefined;
    // Sessions, so that a server's request (elicitation) and the client's answer meet again.
    const sessionId = request.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (existing !== undefined) return existing.handleRequest(request, response, body);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    await mcpServer(access.clientId, counts).connect(transport);
    await transport.handleRequest(request, response, body);
  };

  const http = createServer((request, response) => {
    const url = new URL(request.url ?? "/", origin);
    const route = `${request.method} ${url.pathname}`;
    const handle = async (): Promise<void> => {
      if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) return json(response, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
      if (url.pathname === "/.well-known/oauth-authorization-server") {
        return json(response, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
        });
      }
      if (route === "POST /register") {
        const metadata = JSON.parse(await readBody(request)) as { redirect_uris: string[] };
        const client = { ...metadata, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) };
        clients.set(client.client_id, client);
        counts.registrations++;
        return json(response, 201, client);
      }
      if (route === "GET /authorize") return authorize(url, response);
      if (route === "POST /token") return token(request, response);
      if (url.pathname === "/mcp") return mcp(request, response);
      response.writeHead(404).end();
    };
    handle().catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { error: "server_error", error_description: String(error) });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: `${origin}/mcp`,
    issuer: origin,
    counts,
    expireAccessTokens: () => {
      for (const entry of accessTokens.values()) entry.valid = false;
    },
    revokeEverything: () => {
      for (const entry of [...accessTokens.values(), ...refreshTokens.values()]) entry.valid = false;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const transport of sessions.values()) void transport.close();
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
