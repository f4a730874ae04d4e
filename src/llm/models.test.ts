import { describe, expect, it } from "vitest";
import { anthropicThinkingMode, costOf, defaultModels, isKnownModel, knownModelIds, modelInfo } from "./models.js";

describe("model catalogue", () => {
  it("finds dated and prefixed ids under their base model", () => {
    expect(modelInfo("claude-haiku-4-5-20251001")).toMatchObject({ id: "claude-haiku-4-5-20251001", inputPrice: 1, outputPrice: 5 });
    expect(modelInfo("gpt-4o-mini-2024-07-18").inputPrice).toBe(0.15);
    expect(modelInfo("gpt-4o-2024-11-20").inputPrice).toBe(2.5);
    expect(modelInfo("openai/gpt-5").contextWindow).toBe(400_000);
    expect(isKnownModel("o3-mini-2025-01-31")).toBe(true);
    expect(modelInfo("o3-mini-2025-01-31").inputPrice).toBe(1.1);
  });

  it("falls back to a free model with modest limits for unknown ids, overridable", () => {
    expect(isKnownModel("llama3.2:3b")).toBe(false);
    expect(modelInfo("llama3.2:3b")).toMatchObject({ inputPrice: 0, outputPrice: 0, contextWindow: 128_000 });
    expect(modelInfo("claude-nova-7")).toMatchObject({ contextWindow: 200_000, supportsImages: true, inputPrice: 0 });
    expect(modelInfo("llama3.2:3b", { overrides: { contextWindow: 8192, inputPrice: 1 } })).toMatchObject({ contextWindow: 8192, inputPrice: 1 });
  });

  it("prices input, output, cache reads and cache writes", () => {
    const opus = modelInfo("claude-opus-4-1");
    expect(costOf(opus, { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadTokens: 1_000_000, cacheWriteTokens: 1_000_000 })).toBeCloseTo(15 + 75 + 1.5 + 18.75, 10);
    const gpt = modelInfo("gpt-4.1");
    expect(costOf(gpt, { inputTokens: 0, outputTokens: 0, cacheReadTokens: 2_000_000 })).toBeCloseTo(1, 10);
  });

  it("asks newer Anthropic models for adaptive thinking, older ones for a budget", () => {
    expect(anthropicThinkingMode("claude-sonnet-5-5")).toBe("adaptive");
    expect(anthropicThinkingMode("claude-opus-4-6")).toBe("adaptive");
    expect(anthropicThinkingMode("claude-sonnet-4-5-20250929")).toBe("budget");
    expect(anthropicThinkingMode("claude-haiku-4-5")).toBe("budget");
  });
});

describe("Gemini and Responses API models in the catalogue", () => {
  it("knows Gemini's limits, prices and image input, and the Responses API's default model", () => {
    expect(modelInfo("gemini-2.5-pro")).toMatchObject({ contextWindow: 1_048_576, maxOutputTokens: 65_536, inputPrice: 1.25, outputPrice: 10, supportsImages: true, supportsReasoning: true });
    expect(modelInfo("models/gemini-2.5-flash").inputPrice).toBe(0.3);
    expect(knownModelIds("gemini")).toContain("gemini-2.5-flash-lite");
    expect(defaultModels["openai-responses"]).toBe("gpt-5.4");
    expect(defaultModels.gemini).toBe("gemini-2.5-pro");
  });
});
