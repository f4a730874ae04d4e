import { describe, expect, it } from "vitest";
import { modelChoices } from "./session-config.js";

describe("the editor's model choices for openai-responses and gemini", () => {
  it("offers OpenAI models for openai-responses and Gemini models for gemini, the current one first", () => {
    const responses = modelChoices("openai-responses", "gpt-5.4");
    expect(responses[0]).toBe("gpt-5.4");
    expect(responses).toContain("gpt-5-mini");
    expect(responses.some((id) => id.startsWith("gemini") || id.startsWith("claude"))).toBe(false);
    const gemini = modelChoices("gemini", "gemini-2.5-flash");
    expect(gemini[0]).toBe("gemini-2.5-flash");
    expect(gemini).toContain("gemini-2.5-pro");
    expect(gemini.every((id) => id.startsWith("gemini"))).toBe(true);
    expect(modelChoices("mock", "m")).toEqual(["m"]);
  });
});
