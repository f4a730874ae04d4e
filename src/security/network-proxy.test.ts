/**
 * cairn's network proxy (#30) on real sockets: loopback servers reached under
 * different host names (the proxy's resolution map sends every name to
 * 127.0.0.1), decided by Network(domain:…) rules: exact names, wildcards,
 * presets, deny over allow.
 */
import { createServer, request, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideDomain } from "./network-domains.js";
import { startDomainProxy, type DomainProxy } from "./network-proxy.js";
import { parseRule, rulesFromBlock, RuleSyntaxError } from "./permission-rules.js";

const rules = rulesFromBlock({ allow: ["Network(domain:api.allowed.test)", "Network(domain:*.wild.test)", "Network(preset:package-registries)"], deny: ["Network(domain:blocked.wild.test)"] }, "test");

let folder: string;
let upstream: Server;
let port: number;
let proxy: DomainProxy;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "cairn-proxy-test-"));
  upstream = createServer((incoming, response) => {
    const forwarded = ["proxy-authorization", "keep-alive", "te", "x-kept"].filter((name) => incoming.headers[name] !== undefined);
    response.setHeader("keep-alive", "timeout=99");
    response.end(`upstream saw ${incoming.headers.host ?? ""}${incoming.url ?? ""} with ${forwarded.join(",")}`);
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  port = (upstream.address() as { port: number }).port;
  proxy = startDomainProxy({ socketPath: join(folder, "proxy.sock"), decide: (host) => decideDomain(rules, host), resolve: () => "127.0.0.1" });
});

afterAll(async () => {
  proxy.close();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  rmSync(folder, { recursive: true, force: true });
});

/** A plain HTTP request for `host` through the proxy's socket: the status and body. */
function viaProxy(host: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ socketPath: proxy.socketPath, path: `http://${host}:${port}/x`, headers: { host: `${host}:${port}`, ...headers } }, (response) => {
      let body = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("the network proxy lets through the hosts the rules allow and refuses the rest", () => {
  it("headers meant for the proxy or for one hop are not sent on, either way; the others are", async () => {
    const answer = await viaProxy("api.allowed.test", { "proxy-authorization": "Basic c2VjcmV0", "keep-alive": "timeout=5", te: "trailers", "x-kept": "yes" });
    expect(answer.body).toMatch(/ with x-kept$/);
    // The upstream said timeout=99 for its own connection; the proxy speaks for its own (Node adds timeout=5) or not at all.
    expect(answer.headers["keep-alive"]).not.toBe("timeout=99");
  });

  it("an exact name, a subdomain of a wildcard and a preset's host get through; the wildcard's apex, a look-alike and a denied subdomain are refused", async () => {
    for (const host of ["api.allowed.test", "deep.sub.wild.test", "registry.npmjs.org", "API.Allowed.Test."]) {
      expect(await viaProxy(host), host).toMatchObject({ status: 200, body: expect.stringContaining("upstream saw") });
    }
    for (const host of ["allowed.test", "wild.test", "evilwild.test", "blocked.wild.test", "other.test"]) {
      const answer = await viaProxy(host);
      expect(answer.status, host).toBe(403);
      expect(answer.body).toContain(`cairn's network proxy refused ${host}`);
    }
    expect(proxy.refused()).toEqual(["allowed.test", "wild.test", "evilwild.test", "blocked.wild.test", "other.test"]);
    expect((await viaProxy("blocked.wild.test")).body).toContain("the rule Network(domain:blocked.wild.test) (test) denies blocked.wild.test");
  });

  it("malformed domain rules and unknown presets are configuration errors", () => {
    expect(() => parseRule("Network(domain:*)", "allow", "test")).toThrow(RuleSyntaxError);
    expect(() => parseRule("Network(domain:api.*.test)", "allow", "test")).toThrow(/first label/);
    expect(() => parseRule("Network(preset:everything)", "allow", "test")).toThrow(/no network preset "everything"/);
  });
});
