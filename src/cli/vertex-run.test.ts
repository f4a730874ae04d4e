import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createProvider } from "../llm/create-provider.js";
import { tokenDigest } from "../llm/scripted/server.js";
import { startTokenEndpoint } from "../llm/test-support/token-endpoint.js";
import { collectFrom } from "../llm/test-support/chunks.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { runCli } from "./test-support/cli-harness.js";
import { expectTaskDone, taskRunArgs, xmlTaskTurns } from "./test-support/provider-run-scenario.js";

/**
 * Issue 34, Google Vertex AI: Anthropic's models through @anthropic-ai/vertex-sdk (streamRawPredict)
 * with Application Default Credentials: an instance's service account from the metadata server
 * (GCE_METADATA_HOST pointed at the scripted server, which answers Google's metadata paths); and
 * Gemini's models through @google/genai in its Vertex mode, with the same credentials; and a
 * workload identity federation (`external_account`) file whose subject token is exchanged at its
 * own `token_url`, a loopback STS.
 */
const cli = useCliFixture();
const model = "claude-sonnet-4-5@20250929";

describe("cairn run --provider vertex end to end", () => {
  it("XML tools through bin/cairn with the metadata server's credentials: the project and region in the path, 429 retried, a drop, an output-limit cut", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: xmlTaskTurns({ signature: "EqVertexSig", outputLimit: "max_tokens" }) });
    const env = { ...cli.sandbox.env, GCE_METADATA_HOST: `127.0.0.1:${server.port}`, GOOGLE_CLOUD_PROJECT: "acme-ml", CLOUD_ML_REGION: "us-east5" };
    const args = taskRunArgs("xml", ["--provider", "vertex", "--base-url", `${server.url}/v1`, "--model", model]);
    const result = await runCli(args, { env, cwd: cli.sandbox.workspace });
    await expectTaskDone(result, { workspace: cli.sandbox.workspace, apiKey: "ya29.scripted" });
    expect(server.requests.map((request) => request.path)).toEqual(Array(6).fill(`/v1/projects/acme-ml/locations/us-east5/publishers/anthropic/models/${model}:streamRawPredict`));
    expect(new Set(server.requests.map((request) => request.auth))).toEqual(new Set(["bearer"]));
    expect((server.requests[0]?.body as Record<string, unknown>)["anthropic_version"]).toBe("vertex-2023-10-16");
  });

  it("Gemini through @google/genai in Vertex mode, with the same credentials: XML tools through bin/cairn, the project and region in the path", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: xmlTaskTurns({ signature: "GeminiVertexSig", outputLimit: "max_tokens" }) });
    const env = { ...cli.sandbox.env, GCE_METADATA_HOST: `127.0.0.1:${server.port}`, GOOGLE_CLOUD_PROJECT: "acme-ml", CLOUD_ML_REGION: "us-east5" };
    const args = taskRunArgs("xml", ["--provider", "vertex", "--base-url", server.url, "--model", "gemini-2.5-pro"]);
    const result = await runCli(args, { env, cwd: cli.sandbox.workspace });
    await expectTaskDone(result, { workspace: cli.sandbox.workspace, apiKey: "ya29.scripted" });
    expect(new Set(server.requests.map((request) => request.path))).toEqual(new Set(["/v1beta1/projects/acme-ml/locations/us-east5/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse"]));
    expect(new Set(server.requests.map((request) => request.auth))).toEqual(new Set(["bearer"]));
  });

  it("an external_account credentials file: its subject token exchanged at the file's token_url, the access token sent to Vertex AI", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: [{ text: "<attempt_completion>\n<result>federated</result>\n</attempt_completion>" }] });
    const accessToken = "ya29.federated-from-loopback-sts";
    const subjectToken = "eyJhbGciOiJSUzI1NiJ9.ci-oidc-subject.sig";
    const audience = "//iam.googleapis.com/projects/123/locations/global/workloadIdentityPools/ci/providers/github";
    const sts = await startTokenEndpoint({
      answer: ({ path, form }) =>
        path === "/v1/token" && form["subject_token"] === subjectToken && form["audience"] === audience
          ? { body: { access_token: accessToken, issued_token_type: "urn:ietf:params:oauth:token-type:access_token", token_type: "Bearer", expires_in: 3600 } }
          : { status: 400, body: { error: "invalid_grant", error_description: "subject token or audience not accepted" } },
    });
    cli.stopAfterTest(() => sts.close());
    const subjectFile = join(cli.sandbox.root, "oidc-token");
    await writeFile(subjectFile, subjectToken);
    const credentials = join(cli.sandbox.root, "federation.json");
    // No service_account_impersonation_url: the STS token itself is the access token (no call to iamcredentials.googleapis.com).
    const file = { type: "external_account", audience, subject_token_type: "urn:ietf:params:oauth:token-type:jwt", token_url: `${sts.url}/v1/token`, credential_source: { file: subjectFile } };
    await writeFile(credentials, JSON.stringify(file));
    const env = { ...cli.sandbox.env, GOOGLE_APPLICATION_CREDENTIALS: credentials, GOOGLE_CLOUD_PROJECT: "acme-ml", CLOUD_ML_REGION: "global" };
    const args = ["run", "--json", "--yes", "--tool-protocol", "xml", "--provider", "vertex", "--base-url", `${server.url}/v1`, "--model", model, "say done"];
    const result = await runCli(args, { env, cwd: cli.sandbox.workspace });
    expect(result.status, result.stderr).toBe(0);
    expect(result.events.some((event) => event["say"] === "completion_result" && event["text"] === "federated")).toBe(true);
    expect(`${result.stdout}${result.stderr}`).not.toContain(accessToken);
    expect(sts.requests).toEqual([{ method: "POST", path: "/v1/token", form: expect.objectContaining({ grant_type: "urn:ietf:params:oauth:grant-type:token-exchange", subject_token: subjectToken, audience }) }]);
    expect(server.requests.map((request) => [request.path, request.bearerDigest])).toEqual([[`/v1/projects/acme-ml/locations/global/publishers/anthropic/models/${model}:streamRawPredict`, tokenDigest(accessToken)]]);
  });

  it("a credentials file that is not there says to run gcloud auth application-default login (Claude and Gemini alike); a model of neither is refused", async () => {
    const server = await cli.startServer({ turns: [{ text: "never" }] });
    const credentials = join(cli.sandbox.root, "missing-service-account.json");
    const provider = await createProvider({ provider: "vertex", model, baseUrl: `${server.url}/v1`, environment: { GOOGLE_APPLICATION_CREDENTIALS: credentials, GOOGLE_CLOUD_PROJECT: "acme-ml" } });
    const { error: failure } = await collectFrom(provider);
    expect(failure).toMatchObject({ kind: "auth", retryable: false });
    expect((failure as Error).message).toMatch(/To fix: run `gcloud auth application-default login`/);
    const gemini = await createProvider({ provider: "vertex", model: "gemini-2.5-pro", baseUrl: server.url, environment: { GOOGLE_APPLICATION_CREDENTIALS: credentials, GOOGLE_CLOUD_PROJECT: "acme-ml" } });
    const { error: geminiFailure } = await collectFrom(gemini);
    expect(geminiFailure).toMatchObject({ kind: "auth", retryable: false });
    expect((geminiFailure as Error).message).toMatch(/To fix: run `gcloud auth application-default login`/);
    expect(server.requests).toEqual([]);
    await expect(createProvider({ provider: "vertex", model: "llama-4-maverick", environment: {} })).rejects.toThrow(/Anthropic's \(claude-…\) and Google's \(gemini-…\) models/);
  });
});
