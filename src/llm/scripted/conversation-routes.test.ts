import { describe, expect, it } from "vitest";
import { useScriptedServer } from "../test-support/scripted-server-fixture.js";
import { AnthropicProvider } from "../anthropic.js";
import { GeminiProvider } from "../gemini.js";
import { modelInfo } from "../models.js";
import { OpenAiProvider } from "../openai.js";
import { OpenAiResponsesProvider } from "../openai-responses.js";
import type { Provider } from "../types.js";

const scripted = useScriptedServer();

async function textOf(provider: Provider, userText: string): Promise<string> {
  let text = "";
  const stream = provider.createMessage({ systemPrompt: "s", messages: [{ role: "user", content: [{ type: "text", text: userText }] }], signal: new AbortController().signal });
  for await (const chunk of stream) if (chunk.type === "text") text += chunk.text;
  return text;
}

describe("scripted conversations through the real SDKs of all four APIs", () => {
  it("routes each API's request by its first user message", async () => {
    const server = await scripted.start({
      turns: [{ text: "main 0" }, { text: "main 1" }, { text: "main 2" }, { text: "main 3" }],
      conversations: [{ match: "ALPHA:", turns: [{ text: "alpha 0" }, { text: "alpha 1" }, { text: "alpha 2" }, { text: "alpha 3" }] }],
    });
    const url = server.url;
    const providers: Provider[] = [
      new AnthropicProvider({ apiKey: "k", model: modelInfo("claude-sonnet-5-5"), baseUrl: url }),
      new OpenAiProvider({ apiKey: "k", model: modelInfo("gpt-5.4"), baseUrl: `${url}/v1` }),
      new OpenAiResponsesProvider({ apiKey: "k", model: modelInfo("gpt-5.4"), baseUrl: `${url}/v1` }),
      new GeminiProvider({ apiKey: "k", model: modelInfo("gemini-2.5-pro"), baseUrl: url }),
    ];
    for (const [index, provider] of providers.entries()) {
      expect(await textOf(provider, "ALPHA: explore"), provider.name).toBe(`alpha ${index}`);
      expect(await textOf(provider, "the parent task"), provider.name).toBe(`main ${index}`);
    }
  });
});
