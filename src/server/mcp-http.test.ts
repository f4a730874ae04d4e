/**
 * `cairn mcp serve --http`'s server in process, over real HTTP on loopback: the MCP SDK's client with the token
 * starts a task and takes its patch; without the token, or from a foreign `Host` or `Origin`, nothing is answered.
 */
import { request as httpRequest } from "node:http";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, type Sandbox } from "../cli/test-support/cli-harness.js";
import { startMcpHttpServer, type RunningMcpHttp } from "./mcp-http.js";
import { newToken } from "./request-guard.js";
import { TaskRegistry } from "./task-registry.js";
import { valueOf } from "./test-support/mcp-tool-calls.js";

const token = newToken();
const write = { text: "<write_to_file>\n<path>notes.md</path>\n<content>\n# Notes\n</content>\n</write_to_file>" };
const complete = { text: "<attempt_completion>\n<result>\nNotes written.\n</result>\n</attempt_completion>" };

let sandbox: Sandbox;
let server: RunningMcpHttp;

beforeAll(async () => {
  sandbox = await makeSandbox();
  const registry = new TaskRegistry({ provider: "mock", scenario: { turns: [write, complete] }, toolProtocol: "xml", sandbox: "off", env: sandbox.env, dataDir: sandbox.dataDir });
  server = await startMcpHttpServer({ registry, host: "127.0.0.1", port: 0, token, version: "test" });
});

afterAll(async () => {
  await server?.close();
  await sandbox?.cleanup();
});

function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "http-agent", version: "1.0.0" });
  return client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } })).then(() => client);
}

/** A raw POST with the given headers: its status. */
function post(headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    call.on("error", reject);
    call.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
  });
}

describe("cairn mcp serve --http: streamable HTTP with a token", () => {
  it("the SDK's client with the token starts a task and gets its result and patch", async () => {
    const client = await connect({ authorization: `Bearer ${token}` });
    try {
      const { taskId } = await valueOf(client, "start_task", { folder: sandbox.workspace, task: "write the notes", permissionMode: "acceptEdits" });
      const result = await valueOf(client, "get_result", { taskId, waitSeconds: 20 });
      expect(result).toMatchObject({ status: "completed", finalText: "Notes written." });
      expect(String(result["patch"])).toContain("+# Notes");
      expect(await readFile(join(sandbox.workspace, "notes.md"), "utf8")).toBe("# Notes\n");
      // A long poll on a task that ended does not wait.
      const started = Date.now();
      const page = await valueOf(client, "follow_task", { taskId, after: 1_000, waitSeconds: 10 });
      expect(page).toMatchObject({ events: [], running: false });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await client.close();
    }
  }, 30_000);

  it("without the token (or with another) the client cannot connect: 401", async () => {
    await expect(connect({})).rejects.toThrow(/401|token/);
    expect(await post({})).toBe(401);
    expect(await post({ authorization: `Bearer ${newToken()}` })).toBe(401);
    expect(await post({ authorization: `Bearer ${token}` })).toBe(200);
  });

  it("a foreign Host (DNS rebinding) or Origin is refused, even with the token: 403", async () => {
    const port = new URL(server.url).port;
    expect(await post({ authorization: `Bearer ${token}`, host: `evil.example:${port}` })).toBe(403);
    expect(await post({ authorization: `Bearer ${token}`, origin: "https://evil.example" })).toBe(403);
  });
});
