import { describe, expect, it } from "vitest";
import { fromOpenAiMessages, toOpenAiMessages, toOpenAiTools } from "./openai-messages.js";
import { DroppedReasoning } from "./reasoning-signature.js";
import type { Message } from "./types.js";

const history: Message[] = [
  { role: "user", content: [{ type: "text", text: "fix it" }] },
  {
    role: "assistant",
    content: [
      { type: "reasoning", text: "look first", signature: "sig" },
      { type: "text", text: "Reading." },
      { type: "tool_use", id: "call_1", name: "read_file", input: { path: "a.ts" } },
      { type: "tool_use", id: "call_2", name: "list_files", input: {} },
    ],
  },
  {
    role: "user",
    content: [
      { type: "tool_result", toolUseId: "call_1", content: "const a = 1;" },
      {
        type: "tool_result",
        toolUseId: "call_2",
        content: [
          { type: "text", text: "shot" },
          { type: "image", mediaType: "image/png", data: "iVBOR" },
        ],
      },
      { type: "text", text: "continue" },
    ],
  },
];

describe("toOpenAiMessages", () => {
  it("signed reasoning of another API (a task resumed on Chat Completions) is left out and counted for a note", () => {
    const dropped = new DroppedReasoning();
    const converted = toOpenAiMessages(
      "sys",
      [
        { role: "user", content: [{ type: "text", text: "go" }] },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "thought", signature: "EqQBanthropic" },
            { type: "text", text: "ok" },
          ],
        },
      ],
      { dropped },
    );
    expect(JSON.stringify(converted)).not.toContain("EqQBanthropic");
    expect(dropped.note("Chat Completions")).toMatch(/1 reasoning block\(s\) from anthropic left out of the request: Chat Completions/);
  });

  it("sends tool calls with JSON arguments, tool results as tool messages and result images in a user message", () => {
    expect(toOpenAiMessages("sys", history)).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "fix it" },
      {
        role: "assistant",
        content: "Reading.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a.ts"}' } },
          { id: "call_2", type: "function", function: { name: "list_files", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "const a = 1;" },
      { role: "tool", tool_call_id: "call_2", content: "shot" },
      {
        role: "user",
        content: [
          { type: "text", text: "Images returned by tool call call_2:" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } },
        ],
      },
      { role: "user", content: "continue" },
    ]);
  });

  it("passes reasoning back as reasoning_content only when the flag asks for it", () => {
    const withReasoning = toOpenAiMessages("sys", history, { reasoningHistory: "reasoning_content" });
    expect(withReasoning[2]).toMatchObject({ role: "assistant", reasoning_content: "look first" });
    expect(toOpenAiMessages("sys", history)[2]).not.toHaveProperty("reasoning_content");
  });

  it("answers a tool call that has no result with an interrupted tool message", () => {
    const converted = toOpenAiMessages("sys", history.slice(0, 2));
    expect(converted.slice(-2)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: "[interrupted: this tool call was not known to have run]" },
      { role: "tool", tool_call_id: "call_2", content: "[interrupted: this tool call was not known to have run]" },
    ]);
  });

  it("converts back to the internal history", () => {
    const back = fromOpenAiMessages(toOpenAiMessages("sys", history, { reasoningHistory: "reasoning_content" }));
    expect(back[0]).toEqual(history[0]);
    expect(back[1]).toEqual({ ...history[1], content: [{ type: "reasoning", text: "look first" }, ...history[1]!.content.slice(1)] });
    expect(back[2]!.content).toEqual([
      { type: "tool_result", toolUseId: "call_1", content: "const a = 1;" },
      { type: "tool_result", toolUseId: "call_2", content: "shot" },
      { type: "text", text: "Images returned by tool call call_2:" },
      { type: "image", mediaType: "image/png", data: "iVBOR" },
      { type: "text", text: "continue" },
    ]);
    expect(toOpenAiTools([{ name: "a", description: "A", inputSchema: { type: "object" } }])).toEqual([{ type: "function", function: { name: "a", description: "A", parameters: { type: "object" } } }]);
  });
});
