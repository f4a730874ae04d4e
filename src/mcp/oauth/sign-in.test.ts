/**
 * OAuth sign-in for HTTP MCP servers against a real authorization server and a
 * real MCP server on loopback that requires bearer tokens: the browser is an
 * HTTP client that follows the redirect to cairn's loopback callback.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox } from "../../cli/test-support/cli-harness.js";
import type { Sandbox } from "../../cli/test-support/cli-harness.js";
import { McpHub } from "../hub.js";
import { serverConfig } from "../test-support/servers.js";
import { startOAuthMcpServer } from "../test-support/oauth-server.js";
import type { OAuthMcpServer } from "../test-support/oauth-server.js";
import { credentialsFolder, storedSignInState } from "./credential-store.js";
import { signIn, signOut } from "./sign-in.js";

let server: OAuthMcpServer;
let sandbox: Sandbox;

beforeAll(async () => {
  [server, sandbox] = await Promise.all([startOAuthMcpServer(), makeSandbox()]);
});
afterAll(async () => {
  await Promise.all([server.stop(), sandbox.cleanup()]);
});

/** What a browser does with the authorization URL: follow the redirects, ending at cairn's callback. */
async function browse(url: URL | string): Promise<string> {
  const response = await fetch(url, { redirect: "follow" });
  return `${response.status} ${await response.text()}`;
}

async function connectedHub(name: string, dataDir: string): Promise<McpHub> {
  const hub = new McpHub({ servers: [serverConfig(name, { type: "streamableHttp", url: server.url, headers: {} })], dataDir, reconnect: { initialDelayMs: 3_600_000 } });
  await hub.waitForServers(10_000, new AbortController().signal);
  return hub;
}

async function whoami(hub: McpHub, name: string): Promise<string> {
  const result = await hub.callTool({ server: name, tool: "whoami", arguments: {}, signal: new AbortController().signal });
  return JSON.stringify(result);
}

describe("signing in to an HTTP MCP server with OAuth", () => {
  it("a server that wants a sign-in is reported with the command to run, not retried", async () => {
    const dataDir = join(sandbox.root, "never-signed-in");
    const hub = await connectedHub("tracker", dataDir);
    try {
      const [state] = hub.serverStates();
      expect(state).toMatchObject({ status: "waiting", signInRequired: true });
      expect(state?.error).toBe('MCP server "tracker" needs sign-in: run `cairn mcp login tracker`');
      await expect(hub.callTool({ server: "tracker", tool: "whoami", arguments: {}, signal: new AbortController().signal })).rejects.toThrow(/cairn mcp login tracker/);
    } finally {
      await hub.close();
    }
  });

  it("signs in (discovery, registration, PKCE, loopback redirect), uses the token, refreshes it, and reports a revoked one", async () => {
    const dataDir = join(sandbox.root, "in-process");
    const pages: string[] = [];
    await signIn({ dataDir, server: "tracker", serverUrl: server.url, openUrl: async (url) => void pages.push(await browse(url)) });
    expect(pages[0]).toMatch(/^200 .*Signed in/);
    expect(server.counts).toMatchObject({ registrations: 1, authorizations: 1 });

    // The tokens are the user's alone, in a folder only they can enter, and never in plain sight elsewhere.
    const folder = credentialsFolder(dataDir);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    const [file] = await readdir(folder);
    expect((await stat(join(folder, file ?? ""))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(folder, file ?? ""), "utf8")).toMatch(/"access_token"/);
    expect(await storedSignInState(dataDir, { name: "tracker", transport: { type: "streamableHttp", url: server.url } })).toBe("signed in");

    const hub = await connectedHub("tracker", dataDir);
    try {
      expect(hub.serverStates()[0]?.status).toBe("connected");
      expect(await whoami(hub, "tracker")).toMatch(/signed in as /);

      server.expireAccessTokens();
      expect(await whoami(hub, "tracker")).toMatch(/signed in as /);
      expect(server.counts.refreshes).toBe(1);

      server.revokeEverything();
      await expect(whoami(hub, "tracker")).rejects.toThrow('MCP server "tracker" refused the call of tool "whoami": its sign-in expired or was revoked. Run `cairn mcp login tracker` to sign in again.');
      expect(await storedSignInState(dataDir, { name: "tracker", transport: { type: "streamableHttp", url: server.url } })).toBe("needs sign-in");
    } finally {
      await hub.close();
    }
    expect(await signOut({ dataDir, server: "tracker", serverUrl: server.url })).toBe(true);
    expect(await storedSignInState(dataDir, { name: "tracker", transport: { type: "streamableHttp", url: server.url } })).toBeUndefined();
  });
});
