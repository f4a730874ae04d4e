import { describe, expect, it } from "vitest";
import type { Message, Provider } from "../llm/types.js";
import { ContextManager } from "./context-manager.js";
import { defaultContextSettings } from "./context-settings.js";
import { isTokenizerLoaded, isTokenizerRequested } from "./token-estimate.js";

// A file of its own: the tokenizer is loaded once per process, and here nothing else loads it.
const provider: Provider = {
  name: "fake",
  model: { id: "fake", contextWindow: 8_000, maxOutputTokens: 1_000, inputPrice: 0, outputPrice: 0, supportsImages: false, supportsReasoning: false },
  createMessage: () => (async function* () {})(),
};

describe("the tokenizer is loaded between requests, never for a status read while an answer streams", () => {
  it("a context past half the budget loads it at the next request, not when the status line reads it", async () => {
    const history: Message[] = [{ role: "user", content: [{ type: "text", text: "the task" }] }];
    const manager = new ContextManager({ provider, readFile: async () => undefined, settings: { ...defaultContextSettings, enabled: false } });
    manager.attach({
      messages: () => history,
      replace: async () => false,
      say: () => undefined,
      lastContextTokens: () => 0,
      signal: new AbortController().signal,
    });
    await manager.beforeRequest();
    // The answer streams in: the status line reads the context at every frame.
    history.push({ role: "assistant", content: [{ type: "text", text: "word ".repeat(6_000) }] });
    expect(manager.tokensUsed()).toBeGreaterThan(manager.budget / 2);
    expect(isTokenizerRequested()).toBe(false);
    await manager.beforeRequest();
    expect(isTokenizerRequested()).toBe(true);
    const deadline = Date.now() + 10_000;
    while (!isTokenizerLoaded() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isTokenizerLoaded()).toBe(true);
  });
});
