import { describe, expect, it } from "vitest";
import { ConversationRouter, firstUserText, firstUserTextOfBody } from "./conversation-router.js";

describe("scripted conversations are routed by their first user message", () => {
  it("routes requests by their first user message, each conversation counting its own turns; the rest go to the main turns", () => {
    const router = new ConversationRouter({
      turns: [{ text: "main 0" }, { text: "main 1" }],
      conversations: [{ match: "ALPHA", turns: [{ text: "alpha 0" }, { text: "alpha 1" }] }],
    });
    expect(router.next("parent task").turn?.text).toBe("main 0");
    expect(router.next("<task>ALPHA: go</task>").turn?.text).toBe("alpha 0");
    expect(router.next("parent task").turn?.text).toBe("main 1");
    expect(router.next("ALPHA again").turn?.text).toBe("alpha 1");
    const past = router.next("ALPHA");
    expect(past).toMatchObject({ conversation: "conversations[0]", position: 2, turnCount: 2 });
    expect(past.turn).toBeUndefined();
  });

  it("reads the first user message of Anthropic and OpenAI bodies", () => {
    expect(
      firstUserText([
        {
          role: "user",
          content: [
            { type: "text", text: "a" },
            { type: "text", text: "b" },
          ],
        },
      ]),
    ).toBe("a\nb");
    expect(
      firstUserText([
        { role: "system", content: "sys" },
        { role: "user", content: "hello" },
      ]),
    ).toBe("hello");
    expect(firstUserText(undefined)).toBe("");
  });

  it("reads the first user message of request bodies of all four APIs", () => {
    expect(firstUserTextOfBody({ system: "s", messages: [{ role: "user", content: [{ type: "text", text: "anthropic" }] }] })).toBe("anthropic");
    expect(
      firstUserTextOfBody({
        messages: [
          { role: "system", content: "s" },
          { role: "user", content: "chat" },
        ],
      }),
    ).toBe("chat");
    expect(firstUserTextOfBody({ instructions: "s", input: [{ role: "user", content: [{ type: "input_text", text: "responses" }] }] })).toBe("responses");
    expect(firstUserTextOfBody({ input: "plain responses" })).toBe("plain responses");
    expect(firstUserTextOfBody({ systemInstruction: { parts: [{ text: "s" }] }, contents: [{ role: "user", parts: [{ text: "gemini" }, { text: "more" }] }] })).toBe("gemini\nmore");
    expect(firstUserTextOfBody({})).toBe("");
    expect(firstUserTextOfBody("not a body")).toBe("");
  });
});
