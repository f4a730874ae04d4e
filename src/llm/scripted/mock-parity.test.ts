import { describe, expect, it } from "vitest";
import { useScriptedServer } from "../test-support/scripted-server-fixture.js";
import { AnthropicProvider } from "../anthropic.js";
import { modelInfo } from "../models.js";
import { OpenAiProvider } from "../openai.js";
import { collectFrom } from "../test-support/chunks.js";
import { MockProvider } from "./mock-provider.js";
import type { Scenario } from "./scenario.js";

// The mock provider stands in for the real ones in fast tests, so it must yield what they yield.
const scenario: Scenario = {
  turns: [
    {
      reasoning: "First look, then write.",
      reasoningSignature: "sig-parity",
      text: "Reading and writing <b>now</b>.",
      toolCalls: [
        { id: "call_1", name: "read_file", arguments: { path: "src/ä.ts" } },
        { id: "call_2", name: "write_to_file", arguments: { path: "b.txt", content: 'x\n"y"', lines: 2 } },
      ],
      usage: { inputTokens: 300, outputTokens: 40, cacheReadTokens: 100 },
      chunkSize: 5,
    },
  ],
};

const scripted = useScriptedServer();

describe("MockProvider parity with the real providers", () => {
  it("yields exactly the chunks the Anthropic provider yields for the same turn", async () => {
    const model = modelInfo("claude-sonnet-5-5");
    const server = await scripted.start(scenario);
    const real = await collectFrom(new AnthropicProvider({ apiKey: "k", model, baseUrl: server.url }));
    const mock = await collectFrom(new MockProvider({ scenario, model }));
    expect(real.error).toBeUndefined();
    expect(mock.chunks).toEqual(real.chunks);
  });

  it("yields the OpenAI provider's chunks, apart from the thinking signature OpenAI does not have", async () => {
    const model = modelInfo("gpt-5.4");
    const server = await scripted.start(scenario);
    const real = await collectFrom(new OpenAiProvider({ model, baseUrl: `${server.url}/v1` }));
    const mock = await collectFrom(new MockProvider({ scenario, model }));
    expect(real.error).toBeUndefined();
    expect(mock.chunks.filter((chunk) => !(chunk.type === "reasoning" && chunk.signature !== undefined))).toEqual(real.chunks);
  });
});
