import { describe, expect, it } from "vitest";
import { startRecordingProxy } from "../llm/test-support/recording-proxy.js";
import type { RecordingProxy } from "../llm/test-support/recording-proxy.js";
import { hasOpenssl, makeCertificate, startTlsFront } from "../llm/test-support/tls-front.js";
import { runCli } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { withoutSandboxNotice } from "./test-support/cli-harness.js";

/** #20 item 4: every provider's requests go through HTTPS_PROXY / HTTP_PROXY unless NO_PROXY says otherwise. */
const cli = useCliFixture({
  prepare: async (sandbox) => {
    for (const name of ["http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"]) delete sandbox.env[name];
  },
});

async function startProxy(): Promise<RecordingProxy> {
  const proxy = await startRecordingProxy();
  cli.stopAfterTest(() => proxy.close());
  return proxy;
}

const providers = [
  { provider: "anthropic", path: (url: string) => url, model: "claude-sonnet-5-5" },
  { provider: "openai", path: (url: string) => `${url}/v1`, model: "gpt-4.1" },
  { provider: "openai-responses", path: (url: string) => `${url}/v1`, model: "gpt-5.4" },
  { provider: "gemini", path: (url: string) => url, model: "gemini-2.5-pro" },
] as const;

const complete = { text: "<attempt_completion>\n<result>via the proxy</result>\n</attempt_completion>" };

/** A name no resolver knows: only the recording proxy (which serves every name from 127.0.0.1) reaches it. */
const remoteHost = "llm.cairn-test.invalid";

describe("requests go through a proxy", () => {
  it("every provider sends its requests through HTTP_PROXY / HTTPS_PROXY, not for NO_PROXY hosts, never for this machine", { timeout: 120_000 }, async () => {
    const server = await cli.startServer({ turns: Array.from({ length: providers.length * 2 }, () => complete) });
    const proxy = await startProxy();
    const remote = `http://${remoteHost}:${server.port}`;
    for (const { provider, path, model } of providers) {
      const argsFor = (base: string) => ["run", "--json", "--yes", "--provider", provider, "--base-url", path(base), "--api-key", "k", "--model", model, "go"];
      const before = proxy.requests.length;
      const proxied = await runCli(argsFor(remote), { env: { ...cli.sandbox.env, HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url }, cwd: cli.sandbox.workspace });
      expect(withoutSandboxNotice(proxied.stderr), provider).toBe("");
      expect(proxied.status, provider).toBe(0);
      expect(proxied.events.some((event) => event["say"] === "completion_result" && event["text"] === "via the proxy")).toBe(true);
      const seen = proxy.requests.slice(before).map((request) => request.target);
      expect(seen.length, `${provider} went through the proxy`).toBeGreaterThan(0);
      expect(seen.every((target) => target.includes(`${remoteHost}:${cli.server!.port}`))).toBe(true);

      const after = proxy.requests.length;
      const excluded = await runCli(argsFor(remote), { env: { ...cli.sandbox.env, http_proxy: proxy.url, https_proxy: proxy.url, NO_PROXY: remoteHost }, cwd: cli.sandbox.workspace });
      expect(excluded.status, `${provider}: ${remoteHost} cannot be reached without the proxy`).not.toBe(0);
      const local = await runCli(argsFor(server.url), { env: { ...cli.sandbox.env, HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url }, cwd: cli.sandbox.workspace });
      expect(local.status, provider).toBe(0);
      expect(proxy.requests.length, `${provider} skipped the proxy for NO_PROXY and for 127.0.0.1`).toBe(after);
    }
    expect(server.requests).toHaveLength(providers.length * 2);
  });

  it("a proxy address that is not a URL is a clear error", { timeout: 30_000 }, async () => {
    const result = await runCli(["run", "--json", "--yes", "--provider", "openai", "--base-url", "http://127.0.0.1:9/v1", "--api-key", "k", "go"], {
      env: { ...cli.sandbox.env, HTTPS_PROXY: "not a proxy" },
      cwd: cli.sandbox.workspace,
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/the proxy address "not a proxy" \(HTTPS_PROXY \/ HTTP_PROXY\) is not a URL/);
  });
});

const openssl = hasOpenssl();
if (!openssl) console.warn("proxy-run.test.ts: openssl is missing: the NODE_EXTRA_CA_CERTS tests are skipped (install the openssl package)");

describe.skipIf(!openssl)("an extra CA bundle (NODE_EXTRA_CA_CERTS) is trusted", () => {
  it("every provider reaches an HTTPS server signed by the extra CA, directly and through the proxy's tunnel, and fails without it", { timeout: 120_000 }, async () => {
    const server = await cli.startServer({ turns: Array.from({ length: providers.length * 2 }, () => complete) });
    const proxy = await startProxy();
    const { certFile, cert, key } = makeCertificate(cli.sandbox.root);
    const front = await startTlsFront({ cert, key, targetPort: server.port });
    try {
      const https = `https://127.0.0.1:${front.port}`;
      for (const { provider, path, model } of providers) {
        const args = ["run", "--json", "--yes", "--provider", provider, "--base-url", path(https), "--api-key", "k", "--model", model, "go"];
        const direct = await runCli(args, { env: { ...cli.sandbox.env, NODE_EXTRA_CA_CERTS: certFile }, cwd: cli.sandbox.workspace });
        expect(withoutSandboxNotice(direct.stderr), provider).toBe("");
        expect(direct.status, provider).toBe(0);
        const before = proxy.requests.length;
        const remoteArgs = ["run", "--json", "--yes", "--provider", provider, "--base-url", path(`https://${remoteHost}:${front.port}`), "--api-key", "k", "--model", model, "go"];
        const tunnelled = await runCli(remoteArgs, { env: { ...cli.sandbox.env, NODE_EXTRA_CA_CERTS: certFile, HTTPS_PROXY: proxy.url }, cwd: cli.sandbox.workspace });
        expect(withoutSandboxNotice(tunnelled.stderr), provider).toBe("");
        expect(tunnelled.status, provider).toBe(0);
        expect(proxy.requests.slice(before)).toContainEqual({ method: "CONNECT", target: `${remoteHost}:${front.port}` });
      }
      const withoutCa = { ...cli.sandbox.env };
      delete withoutCa["NODE_EXTRA_CA_CERTS"];
      const refused = await runCli(["run", "--json", "--yes", "--provider", "gemini", "--base-url", https, "--api-key", "k", "go"], { env: withoutCa, cwd: cli.sandbox.workspace });
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toMatch(/TLS certificate is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\).*NODE_EXTRA_CA_CERTS/);
      expect(server.requests).toHaveLength(providers.length * 2);
    } finally {
      await front.close();
    }
  });
});
