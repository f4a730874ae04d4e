import { describe, expect, it } from "vitest";
import { useScriptedServer } from "./test-support/scripted-server-fixture.js";
import { createProvider } from "./create-provider.js";
import { collectFrom, textOf } from "./test-support/chunks.js";

const scripted = useScriptedServer();

describe("createProvider", () => {
  it("names the variable to set when an API key is missing", async () => {
    await expect(createProvider({ provider: "anthropic", environment: {} })).rejects.toThrow(/set ANTHROPIC_API_KEY/);
    await expect(createProvider({ provider: "openai", environment: {} })).rejects.toThrow(/set OPENAI_API_KEY/);
  });

  it("refuses a base URL that is not a URL, with an example", async () => {
    await expect(createProvider({ provider: "openai", baseUrl: "localhost 11434", environment: {} })).rejects.toThrow(/not a valid URL; for example http/);
  });

  it("needs no key for a local OpenAI-compatible server, and prices unknown local models at zero", async () => {
    const server = await scripted.start({ turns: [{ text: "local", usage: { inputTokens: 100, outputTokens: 5 } }] });
    const provider = await createProvider({ provider: "openai", model: "qwen3-coder:30b", baseUrl: `${server.url}/v1`, environment: {} });
    expect(provider.model).toMatchObject({ id: "qwen3-coder:30b", inputPrice: 0, outputPrice: 0 });
    const { chunks } = await collectFrom(provider);
    expect(textOf(chunks)).toBe("local");
    expect(chunks.find((chunk) => chunk.type === "usage")).toMatchObject({ cost: 0 });
  });

  it("applies model overrides and the default model", async () => {
    const server = await scripted.start({ turns: [{ text: "hi" }] });
    const provider = await createProvider({
      provider: "anthropic",
      apiKey: "k",
      baseUrl: server.url,
      modelOverrides: { contextWindow: 50_000 },
    });
    expect(provider.model).toMatchObject({ id: "claude-sonnet-5-5", contextWindow: 50_000, inputPrice: 2 });
    await collectFrom(provider);
    expect(server.requests[0]!.body).toMatchObject({ model: "claude-sonnet-5-5" });
  });

  it("plays a scenario in process with the mock provider", async () => {
    const provider = await createProvider({ provider: "mock", scenario: { turns: [{ text: "scripted" }] } });
    expect(provider.name).toBe("mock");
    expect(textOf((await collectFrom(provider)).chunks)).toBe("scripted");
    await expect(createProvider({ provider: "mock" })).rejects.toThrow(/needs a scenario/);
  });

  it("bills recent Claude models at Bedrock's and Vertex AI's regional endpoints 10% above the global ones; the user's prices still win", async () => {
    const server = await scripted.start({ turns: [{ text: "eu", usage: { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 1_000_000 } }] });
    const environment = { AWS_BEARER_TOKEN_BEDROCK: "ABSKQmVkcm9ja0FQSUtleS1example" };
    const bedrock = (model: string, modelOverrides?: { inputPrice: number }) =>
      createProvider({ provider: "bedrock", model, baseUrl: server.url, environment, ...(modelOverrides === undefined ? {} : { modelOverrides }) });
    // A geographic inference profile, through the real SDK: the usage's cost is the regional one ($3.30 in, $16.50 out, $0.33 cache reads).
    const geo = await bedrock("eu.anthropic.claude-sonnet-4-5-20250929-v1:0");
    const { chunks } = await collectFrom(geo);
    expect(textOf(chunks)).toBe("eu");
    expect((chunks.find((chunk) => chunk.type === "usage") as { cost: number }).cost).toBeCloseTo(3.3 + 1.65 + 0.33, 9);
    expect((await bedrock("global.anthropic.claude-sonnet-4-5-20250929-v1:0")).model).toMatchObject({ inputPrice: 3, outputPrice: 15, cacheReadPrice: 0.3, cacheWritePrice: 3.75 });
    expect((await bedrock("anthropic.claude-opus-4-5-20251101-v1:0")).model).toMatchObject({ inputPrice: 5.5, outputPrice: 27.5, cacheWritePrice: 6.875 });
    // Models before the 4.5 generation keep one price; Nova and the others are not Anthropic's.
    expect((await bedrock("us.anthropic.claude-opus-4-1-20250805-v1:0")).model).toMatchObject({ inputPrice: 15, outputPrice: 75 });
    expect((await bedrock("us.amazon.nova-pro-v1:0")).model).toMatchObject({ inputPrice: 0.8 });
    expect((await bedrock("us.anthropic.claude-sonnet-4-5-20250929-v1:0", { inputPrice: 2.5 })).model).toMatchObject({ inputPrice: 2.5, outputPrice: 16.5 });

    const vertex = (region: string | undefined, environment: Record<string, string> = {}) =>
      createProvider({ provider: "vertex", model: "claude-haiku-4-5@20251001", environment: { GOOGLE_CLOUD_PROJECT: "p", ...environment }, ...(region === undefined ? {} : { cloud: { vertex: { region } } }) });
    expect((await vertex(undefined)).model).toMatchObject({ inputPrice: 1, outputPrice: 5 });
    expect((await vertex("global")).model).toMatchObject({ inputPrice: 1 });
    expect((await vertex("us-east5")).model).toMatchObject({ inputPrice: 1.1, outputPrice: 5.5 });
    expect((await vertex(undefined, { CLOUD_ML_REGION: "europe-west1" })).model).toMatchObject({ inputPrice: 1.1 });
    expect((await vertex(undefined, { GOOGLE_CLOUD_LOCATION: "eu" })).model).toMatchObject({ inputPrice: 1.1 });
    // Anthropic's own API has one price.
    expect((await createProvider({ provider: "anthropic", apiKey: "k", model: "claude-sonnet-4-5", environment: {} })).model).toMatchObject({ inputPrice: 3 });
  });
});
