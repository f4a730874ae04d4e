/**
 * Who may drive `cairn serve` (docs/server.md, Security), through the real
 * CLI: the token on every request, traded once for an HttpOnly cookie; no
 * foreign Host (DNS rebinding) or Origin (another web page); no way to ask
 * for fewer approvals over HTTP; loopback unless the user says otherwise.
 */
import { describe, expect, it } from "vitest";
import { useCliFixture } from "../cli/test-support/cli-fixture.js";
import { startCli } from "../cli/test-support/cli-harness.js";
import { request } from "node:http";
import { startServe } from "./test-support/serve-fixture.js";

const cli = useCliFixture();

/** A raw request, so that the test sets Host and Origin itself. */
function raw(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(new URL(path, url), { headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("cairn serve: only the token's holder, from the server's own pages, drives it", () => {
  it("refuses requests without the token, with a foreign Host or Origin; trades the token for an HttpOnly cookie that then works alone", async () => {
    const model = await cli.startServer({ turns: [] });
    const { url, token, client } = await startServe(cli, model);
    const host = new URL(url).host;

    expect((await raw(url, "/api/tasks", { host })).status).toBe(401);
    expect((await raw(url, "/api/tasks", { host, authorization: "Bearer wrong" })).status).toBe(401);
    expect((await raw(url, "/", { host })).status).toBe(401);
    // DNS rebinding: a page of evil.example resolved to 127.0.0.1 sends its own name as Host.
    const rebound = await raw(url, "/api/tasks", { host: `evil.example:${new URL(url).port}`, authorization: `Bearer ${token}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain("evil.example");
    expect((await raw(url, "/api/tasks", { host, origin: "http://evil.example", authorization: `Bearer ${token}` })).status).toBe(403);
    expect((await raw(url, "/api/tasks", { host, origin: "null", authorization: `Bearer ${token}` })).status).toBe(403);
    expect((await raw(url, "/api/tasks", { host, origin: url, authorization: `Bearer ${token}` })).status).toBe(200);

    const firstLoad = await raw(url, `/?token=${token}`, { host });
    expect(firstLoad.status).toBe(303);
    expect(firstLoad.headers["location"]).toBe("/");
    const cookie = String(firstLoad.headers["set-cookie"]);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const cookieHeader = cookie.split(";")[0]!;
    expect((await raw(url, "/api/tasks", { host, cookie: cookieHeader })).status).toBe(200);
    expect((await raw(url, "/", { host, cookie: cookieHeader })).status).toBe(200);

    const bypass = await client().call("POST", "/api/tasks", { prompt: "anything", cwd: cli.sandbox.workspace, permissionMode: "bypassPermissions" });
    expect(bypass.status).toBe(400);
    expect(String(bypass.body["error"])).toContain("bypassPermissions");
  }, 60_000);

  it("listens beyond loopback only with --allow-remote, and then warns", async () => {
    const refused = startCli(["serve", "--port", "0", "--host", "0.0.0.0"], { env: cli.sandbox.env, cwd: cli.sandbox.workspace });
    expect(await refused.exit).toBe(2);
    expect(refused.stderr).toContain("--allow-remote");

    const model = await cli.startServer({ turns: [] });
    const exposed = await startServe(cli, model, ["--host", "0.0.0.0", "--allow-remote"]);
    await exposed.run.waitForOutput(/warning: listening on 0\.0\.0\.0/, "stderr");
    expect(exposed.run.stderr).toContain("prefer --tls-cert");
  }, 60_000);
});
