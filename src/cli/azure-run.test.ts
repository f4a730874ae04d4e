import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createProvider } from "../llm/create-provider.js";
import { ProviderError } from "../llm/errors.js";
import type { ScenarioTurn } from "../llm/scripted/scenario.js";
import type { Chunk } from "../llm/types.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { runCli } from "./test-support/cli-harness.js";
import { editDiff, expectTaskDone, xmlTaskTurns } from "./test-support/provider-run-scenario.js";

/**
 * Issue 34, Azure OpenAI end to end: `bin/cairn run --provider azure` through the openai package's
 * AzureOpenAI client against the scripted server answering Azure's deployment paths, with the
 * `api-version` query and the `api-key` header (src/llm/scripted/server.ts). Chat Completions with
 * the native protocol, the Responses API (a profile) with the XML protocol.
 */
const cli = useCliFixture();
const key = "azure-e2e-secret-key";

const nativeTurns: ScenarioTurn[] = [
  { error: { status: 429, headers: { "retry-after": "1" } } },
  {
    reasoning: "Two files first.",
    text: "Writing both files.",
    toolCalls: [
      { id: "call_a", name: "write_to_file", arguments: { path: "a.txt", content: "one\n" } },
      { id: "call_b", name: "write_to_file", arguments: { path: "b.txt", content: "two\n" } },
    ],
  },
  { text: "Now editing the first one and concatenating the two", chunkSize: 4, dropAfterChunks: 8 },
  {
    toolCalls: [
      { id: "call_c", name: "replace_in_file", arguments: { path: "a.txt", diff: editDiff } },
      { id: "call_d", name: "execute_command", arguments: { command: "cat a.txt b.txt > c.txt", requires_approval: false } },
    ],
  },
  { toolCalls: [{ id: "call_e", name: "write_to_file", arguments: '{"path":"big.txt","content":"cut he' }], stopReason: "length" },
  { toolCalls: [{ id: "call_f", name: "attempt_completion", arguments: { result: "all done" } }] },
];

async function writeUserConfig(configDir: string, config: unknown): Promise<void> {
  await mkdir(join(configDir, "cairn"), { recursive: true });
  await writeFile(join(configDir, "cairn", "config.json"), JSON.stringify(config));
}

async function collect(stream: AsyncIterable<Chunk>): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe("cairn run --provider azure end to end", () => {
  for (const protocol of ["native", "xml"] as const) {
    const api = protocol === "native" ? "Chat Completions" : "the Responses API";
    it(`${protocol} protocol through ${api}: the deployment's path, api-version and api-key; 429 retried, a drop, an output-limit cut`, { timeout: 60_000 }, async () => {
      const server = await cli.startServer({ turns: protocol === "native" ? nativeTurns : xmlTaskTurns({ signature: "gAAAA-azure", outputLimit: "max_output_tokens" }) });
      await writeUserConfig(cli.sandbox.configDir, {
        azure: { deployment: "team-gpt", apiVersion: "2025-04-01-preview" },
        profiles: { "azure-responses": { provider: "azure", azure: { api: "responses" } } },
      });
      const provider = protocol === "native" ? ["--provider", "azure"] : ["--profile", "azure-responses"];
      const args = ["run", "--json", "--yes", "--parallel-tools", "--tool-protocol", protocol, ...provider, "--base-url", server.url, "--model", "gpt-5.4", "make the files"];
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
    const chunks = await collect(provider.createMessage({ systemPrompt: "s", messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], signal: new AbortController().signal }));
    expect(
      chunks
        .filter((chunk) => chunk.type === "text")
        .map((chunk) => (chunk.type === "text" ? chunk.text : ""))
        .join(""),
    ).toBe("hello from azure");
    expect(server.requests[0]?.path).toBe("/openai/deployments/mini/chat/completions?api-version=2024-10-21");

    const response = await fetch(`${server.url}/openai/deployments/mini/chat/completions?api-version=2024-10-21`, { method: "POST", body: "{}" });
    expect(response.status).toBe(401);

    await expect(createProvider({ provider: "azure", model, apiKey: "k", environment: {} })).rejects.toThrow(/AZURE_OPENAI_ENDPOINT/);
    const throttled = await cli.startServer({ turns: [{ error: { status: 429, headers: { "retry-after": "7" } } }] });
    const limited = await createProvider({ provider: "azure", model, baseUrl: throttled.url, apiKey: "k", environment: {} });
    const error = await collect(limited.createMessage({ systemPrompt: "s", messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], signal: new AbortController().signal })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "rate_limit", retryAfterMs: 7000 });
  });
});
