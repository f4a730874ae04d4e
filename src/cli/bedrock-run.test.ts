import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createProvider } from "../llm/create-provider.js";
import { ProviderError } from "../llm/errors.js";
import type { Provider } from "../llm/types.js";
import { collectFrom, textOf } from "../llm/test-support/chunks.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { runCli } from "./test-support/cli-harness.js";
import { expectTaskDone, nativeTaskTurns, taskRunArgs, xmlTaskTurns } from "./test-support/provider-run-scenario.js";

/**
 * Issue 34, Amazon Bedrock end to end: `bin/cairn run --provider bedrock` against the scripted
 * server writing Bedrock's binary event streams (src/llm/scripted/bedrock-stream.ts), read by the
 * real SDKs, which check every frame's checksums: an Anthropic model through
 * @anthropic-ai/bedrock-sdk (InvokeModelWithResponseStream, native tools) with credentials from a
 * profile of the shared files, Amazon Nova through ConverseStream (XML tools) with credentials
 * from the environment.
 */
const cli = useCliFixture();
const secretKey = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const claude = "eu.anthropic.claude-sonnet-4-5-20250929-v1:0";

describe("cairn run --provider bedrock end to end", () => {
  it("an Anthropic model through bedrock-sdk, native tools, credentials and region from a profile of the shared files: signed, 429 retried, a drop, an output-limit cut", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: nativeTaskTurns({ ids: "toolu_", outputLimit: "max_tokens", usage: { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 800 } }) });
    const aws = join(cli.sandbox.root, "aws");
    await mkdir(aws, { recursive: true });
    await writeFile(join(aws, "credentials"), `[default]\naws_access_key_id = AKIADEFAULTNOTUSED\naws_secret_access_key = nope\n\n[team]\naws_access_key_id = AKIATEAMEXAMPLE\naws_secret_access_key = ${secretKey}\n`);
    await writeFile(join(aws, "config"), "[profile team]\nregion = eu-west-1\n");
    const env = { ...cli.sandbox.env, AWS_SHARED_CREDENTIALS_FILE: join(aws, "credentials"), AWS_CONFIG_FILE: join(aws, "config"), AWS_PROFILE: "team", AWS_EC2_METADATA_DISABLED: "true" };
    const args = taskRunArgs("native", ["--provider", "bedrock", "--base-url", server.url, "--model", claude]);
    const result = await runCli(args, { env, cwd: cli.sandbox.workspace });
    await expectTaskDone(result, { workspace: cli.sandbox.workspace, apiKey: secretKey });

    expect(server.requests.map((request) => request.path)).toEqual(Array(6).fill(`/model/${claude}/invoke-with-response-stream`));
    expect(new Set(server.requests.map((request) => request.auth))).toEqual(new Set(["aws-sigv4 eu-west-1 bedrock"]));
    // Anthropic's Messages body, as Bedrock takes it: the version in the body, thinking and tools as with Anthropic.
    const body = server.requests[2]?.body as Record<string, unknown>;
    expect(body["anthropic_version"]).toBe("bedrock-2023-05-31");
    expect(body["model"]).toBeUndefined();
    expect(JSON.stringify(body["messages"])).toContain('"type":"tool_use","id":"toolu_a"');
    expect(JSON.stringify(server.requests.map((request) => request.body))).not.toContain("AKIATEAMEXAMPLE");
  });

  it("Amazon Nova through ConverseStream, XML tools, credentials and region from the environment", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({ turns: xmlTaskTurns({ signature: "unused", outputLimit: "max_tokens" }) });
    const env = { ...cli.sandbox.env, AWS_ACCESS_KEY_ID: "AKIAENVEXAMPLE", AWS_SECRET_ACCESS_KEY: secretKey, AWS_REGION: "us-west-2", AWS_EC2_METADATA_DISABLED: "true" };
    const args = taskRunArgs("xml", ["--provider", "bedrock", "--base-url", server.url, "--model", "amazon.nova-pro-v1:0"]);
    const result = await runCli(args, { env, cwd: cli.sandbox.workspace });
    await expectTaskDone(result, { workspace: cli.sandbox.workspace, apiKey: secretKey });
    expect(server.requests.map((request) => request.path)).toEqual(Array(6).fill(`/model/${encodeURIComponent("amazon.nova-pro-v1:0")}/converse-stream`));
    expect(new Set(server.requests.map((request) => request.auth))).toEqual(new Set(["aws-sigv4 us-west-2 bedrock"]));
    const body = server.requests[5]?.body as { system?: Array<{ text: string }>; messages?: unknown[] };
    expect(body.system?.[0]?.text).toContain("attempt_completion");
    expect(body.messages?.length).toBeGreaterThan(4);
  });

  it("a Bedrock API key goes as a bearer token on both APIs; throttling is a rate limit with its retry-after; an expired token says to run aws sso login", async () => {
    const server = await cli.startServer({
      turns: [
        { text: "claude via a key" },
        { text: "nova via a key" },
        { error: { status: 429, headers: { "retry-after": "3" } } },
        {
          error: {
            status: 403,
            body: { message: "The security token included in the request is expired" },
            headers: { "x-amzn-errortype": "ExpiredTokenException:http://internal.amazon.com/coral/com.amazon.coral.service/" },
          },
        },
        {
          error: {
            status: 403,
            body: { message: "The security token included in the request is expired" },
            headers: { "x-amzn-errortype": "ExpiredTokenException:http://internal.amazon.com/coral/com.amazon.coral.service/" },
          },
        },
      ],
    });
    const environment = { AWS_BEARER_TOKEN_BEDROCK: "ABSKQmVkcm9ja0FQSUtleS1example" };
    const viaKey = (model: string): Promise<Provider> => createProvider({ provider: "bedrock", model, baseUrl: server.url, environment });
    expect(textOf((await collectFrom(await viaKey(claude))).chunks)).toBe("claude via a key");
    expect(textOf((await collectFrom(await viaKey("amazon.nova-lite-v1:0"))).chunks)).toBe("nova via a key");
    expect(server.requests.map((request) => request.auth)).toEqual(["bearer", "bearer"]);

    const { error: throttled } = await collectFrom(await viaKey("amazon.nova-lite-v1:0"));
    expect(throttled).toBeInstanceOf(ProviderError);
    expect(throttled).toMatchObject({ kind: "rate_limit", retryable: true });

    const profile = { AWS_PROFILE: "dev", AWS_ACCESS_KEY_ID: "AKIAEXPIRED", AWS_SECRET_ACCESS_KEY: "expired-secret", AWS_SESSION_TOKEN: "expired-session" };
    for (const model of [claude, "amazon.nova-lite-v1:0"]) {
      const { error: expired } = await collectFrom(await createProvider({ provider: "bedrock", model, baseUrl: server.url, environment: profile }));
      expect(expired).toMatchObject({ kind: "auth", retryable: false });
      expect((expired as Error).message).toMatch(/expired.*To fix: run `aws sso login --profile dev`/);
    }
  });
});
