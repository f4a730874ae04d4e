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
});
