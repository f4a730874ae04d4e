import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createProvider } from "../llm/create-provider.js";
import { ProviderError } from "../llm/errors.js";
import { tokenDigest } from "../llm/scripted/server.js";
import { makeCertificate } from "../llm/test-support/tls-front.js";
import { startTokenEndpoint } from "../llm/test-support/token-endpoint.js";
import type { TokenAnswer, TokenRequest } from "../llm/test-support/token-endpoint.js";
import { collectFrom, textOf } from "../llm/test-support/chunks.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { runCli } from "./test-support/cli-harness.js";
import { expectTaskDone, nativeTaskTurns, taskRunArgs, xmlTaskTurns } from "./test-support/provider-run-scenario.js";

/**
 * Issue 34, Azure OpenAI end to end: `bin/cairn run --provider azure` through the openai package's
 * AzureOpenAI client against the scripted server answering Azure's deployment paths, with the
 * `api-version` query and the `api-key` header (src/llm/scripted/server.ts). Chat Completions with
 * the native protocol, the Responses API (a profile) with the XML protocol. Microsoft Entra ID
 * through @azure/identity against a loopback authority (AZURE_AUTHORITY_HOST, HTTPS with a
 * certificate the child trusts through NODE_EXTRA_CA_CERTS).
 */
const cli = useCliFixture();
const key = "azure-e2e-secret-key";

async function writeUserConfig(configDir: string, config: unknown): Promise<void> {
  await mkdir(join(configDir, "cairn"), { recursive: true });
  await writeFile(join(configDir, "cairn", "config.json"), JSON.stringify(config));
}

const tenant = "contoso-tenant";
const entraToken = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.entra-access.sig";

/** Microsoft Entra ID as MSAL reaches it: the tenant's OpenID configuration, then its token endpoint, which takes the workload identity's federated token and refuses anything else. */
function entraAnswer(request: TokenRequest, url: string): TokenAnswer {
  const base = `${url}/${tenant}`;
  const path = request.path.split("?")[0];
  if (path === `/${tenant}/v2.0/.well-known/openid-configuration`) {
    return { body: { token_endpoint: `${base}/oauth2/v2.0/token`, authorization_endpoint: `${base}/oauth2/v2.0/authorize`, issuer: `${base}/v2.0`, jwks_uri: `${base}/discovery/v2.0/keys` } };
  }
  const federated = request.form["client_assertion"] === "federated-k8s-token";
  if (path === `/${tenant}/oauth2/v2.0/token` && request.form["scope"] === "https://cognitiveservices.azure.com/.default" && federated) {
    return { body: { token_type: "Bearer", expires_in: 3599, ext_expires_in: 3599, access_token: entraToken } };
  }
  return { status: 401, body: { error: "invalid_client", error_description: "AADSTS7000215: Invalid client secret provided.", error_codes: [7000215] } };
}

describe("cairn run --provider azure end to end", () => {
  for (const protocol of ["native", "xml"] as const) {
    const api = protocol === "native" ? "Chat Completions" : "the Responses API";
    it(`${protocol} protocol through ${api}: the deployment's path, api-version and api-key; 429 retried, a drop, an output-limit cut`, { timeout: 60_000 }, async () => {
      const server = await cli.startServer({ turns: protocol === "native" ? nativeTaskTurns({ ids: "call_", outputLimit: "length" }) : xmlTaskTurns({ signature: "gAAAA-azure", outputLimit: "max_output_tokens" }) });
      await writeUserConfig(cli.sandbox.configDir, {
        azure: { deployment: "team-gpt", apiVersion: "2025-04-01-preview" },
        profiles: { "azure-responses": { provider: "azure", azure: { api: "responses" } } },
      });
      const provider = protocol === "native" ? ["--provider", "azure"] : ["--profile", "azure-responses"];
      const args = taskRunArgs(protocol, [...provider, "--base-url", server.url, "--model", "gpt-5.4"]);
      const result = await runCli(args, { env: { ...cli.sandbox.env, AZURE_OPENAI_API_KEY: key }, cwd: cli.sandbox.workspace });
      await expectTaskDone(result, { workspace: cli.sandbox.workspace, apiKey: key });

      const path = protocol === "native" ? "/openai/deployments/team-gpt/chat/completions?api-version=2025-04-01-preview" : "/openai/responses?api-version=2025-04-01-preview";
      expect(server.requests.map((request) => request.path)).toEqual(Array(6).fill(path));
      expect(new Set(server.requests.map((request) => request.auth))).toEqual(new Set(["api-key"]));
      // The key reaches neither the model nor the task log.
      expect(JSON.stringify(server.requests.map((request) => request.body))).not.toContain(key);
    });
  }

  it("deployment and api-version from the environment; no credentials get a 401, no endpoint says what to set, a 429 is a rate limit with its retry-after", async () => {
    const server = await cli.startServer({ turns: [{ text: "hello from azure" }, { text: "again" }] });
    const model = "gpt-5.4-mini";
    const provider = await createProvider({ provider: "azure", model, baseUrl: server.url, apiKey: "from-flag", environment: { OPENAI_API_VERSION: "2024-10-21", AZURE_OPENAI_DEPLOYMENT: "mini" } });
    expect(textOf((await collectFrom(provider)).chunks)).toBe("hello from azure");
    expect(server.requests[0]?.path).toBe("/openai/deployments/mini/chat/completions?api-version=2024-10-21");

    const response = await fetch(`${server.url}/openai/deployments/mini/chat/completions?api-version=2024-10-21`, { method: "POST", body: "{}" });
    expect(response.status).toBe(401);

    await expect(createProvider({ provider: "azure", model, apiKey: "k", environment: {} })).rejects.toThrow(/AZURE_OPENAI_ENDPOINT/);
    const throttled = await cli.startServer({ turns: [{ error: { status: 429, headers: { "retry-after": "7" } } }] });
    const limited = await createProvider({ provider: "azure", model, baseUrl: throttled.url, apiKey: "k", environment: {} });
    const { error } = await collectFrom(limited);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "rate_limit", retryAfterMs: 7000 });
  });

  it("Microsoft Entra ID: a workload identity's token from the authority reaches Azure as a bearer token; a refused service principal says what to run", { timeout: 60_000 }, async () => {
    const { certFile, cert, key: tlsKey } = makeCertificate(cli.sandbox.root);
    const authority = await startTokenEndpoint({ tls: { cert, key: tlsKey }, answer: entraAnswer });
    cli.stopAfterTest(() => authority.close());
    const server = await cli.startServer({ turns: [{ text: "<attempt_completion>\n<result>entra</result>\n</attempt_completion>" }] });
    const tokenFile = join(cli.sandbox.root, "azure-identity-token");
    await writeFile(tokenFile, "federated-k8s-token");
    const entra = { ...cli.sandbox.env, NODE_EXTRA_CA_CERTS: certFile, AZURE_AUTHORITY_HOST: authority.url, AZURE_TENANT_ID: tenant, AZURE_CLIENT_ID: "cairn-app" };
    const args = ["run", "--json", "--yes", "--tool-protocol", "xml", "--provider", "azure", "--base-url", server.url, "--model", "gpt-5.4", "say done"];
    const federated = await runCli(args, { env: { ...entra, AZURE_FEDERATED_TOKEN_FILE: tokenFile }, cwd: cli.sandbox.workspace });
    expect(federated.status, federated.stderr).toBe(0);
    expect(federated.events.some((event) => event["say"] === "completion_result" && event["text"] === "entra")).toBe(true);
    expect(server.requests.map((request) => [request.path, request.bearerDigest])).toEqual([["/openai/deployments/gpt-5.4/chat/completions?api-version=2025-04-01-preview", tokenDigest(entraToken)]]);
    const exchange = authority.requests.find((request) => request.method === "POST");
    expect(exchange?.form).toMatchObject({ client_id: "cairn-app", client_assertion: "federated-k8s-token", grant_type: "client_credentials" });

    const refused = await runCli(args, { env: { ...entra, AZURE_CLIENT_SECRET: "wrong-secret-value" }, cwd: cli.sandbox.workspace });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/azure: no Microsoft Entra ID token \(.*AADSTS7000215: Invalid client secret provided.*\)\. To fix: run `az login`/);
    expect(`${refused.stdout}${refused.stderr}`).not.toContain("wrong-secret-value");
    expect(server.requests).toHaveLength(1);
    // Refused credentials are not retried.
    expect(authority.requests.filter((request) => request.form["client_secret"] === "wrong-secret-value")).toHaveLength(1);
  });
});
