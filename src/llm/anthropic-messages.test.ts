import { describe, expect, it } from "vitest";
import { anthropicSystem, fromAnthropicMessages, toAnthropicMessages, toAnthropicTools } from "./anthropic-messages.js";
import type { Message } from "./types.js";

const history: Message[] = [
  {
    role: "user",
    content: [
      { type: "text", text: "fix it" },
      { type: "image", mediaType: "image/png", data: "iVBOR" },
    ],
  },
  {
    role: "assistant",
    content: [
      { type: "reasoning", text: "", redactedData: "opaque" },
      { type: "reasoning", text: "look first", signature: "sig-1" },
      { type: "text", text: "Reading." },
      { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.ts" } },
    ],
  },
  {
    role: "user",
    content: [
      { type: "text", text: "here" },
      { type: "tool_result", toolUseId: "toolu_1", content: [{ type: "text", text: "const a = 1;" }], isError: false },
    ],
  },
];

describe("toAnthropicMessages", () => {
  it("keeps thinking with signatures and redacted thinking, puts tool results first, converts images", () => {
    const converted = toAnthropicMessages(history, { cachedUserTurns: 0 });
    expect(converted).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "fix it" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "redacted_thinking", data: "opaque" },
          { type: "thinking", thinking: "look first", signature: "sig-1" },
          { type: "text", text: "Reading." },
          { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.ts" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "const a = 1;" }] },
          { type: "text", text: "here" },
        ],
      },
    ]);
  });

  it("marks the last block of the two latest user turns, the system prompt and the last tool for caching", () => {
    const converted = toAnthropicMessages(history);
    const marks = converted.map((message) => (typeof message.content === "string" ? [] : message.content.map((block) => "cache_control" in block && block.cache_control !== undefined)));
    expect(marks).toEqual([
      [false, true],
      [false, false, false, false],
      [false, true],
    ]);
    expect(anthropicSystem("sys")).toEqual([{ type: "text", text: "sys", cache_control: { type: "ephemeral" } }]);
    const tools = toAnthropicTools([
      { name: "a", description: "A", inputSchema: { type: "object", properties: {} } },
      { name: "b", description: "B", inputSchema: { type: "object", properties: {} } },
    ]);
    expect(tools.map((tool) => tool.cache_control)).toEqual([undefined, { type: "ephemeral" }]);
  });

  it("drops unsigned thinking and empty text, and never sends an unpaired tool use", () => {
    const converted = toAnthropicMessages(
      [
        { role: "user", content: [{ type: "text", text: "go" }] },
        {
          role: "assistant",
          content: [
            { type: "reasoning", text: "unsigned" },
            { type: "text", text: "" },
            { type: "tool_use", id: "t", name: "x", input: {} },
          ],
        },
      ],
      { cachedUserTurns: 0 },
    );
    expect(converted[1]).toEqual({ role: "assistant", content: [{ type: "tool_use", id: "t", name: "x", input: {} }] });
    expect(converted[2]).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "t", content: "[interrupted: this tool call was not known to have run]", is_error: true }],
    });
  });

  it("converts back to the same internal history", () => {
    const back = fromAnthropicMessages(toAnthropicMessages(history, { cachedUserTurns: 0 }));
    expect(back[0]).toEqual(history[0]);
    expect(back[1]).toEqual(history[1]);
    expect(back[2]!.content).toEqual([
      { type: "tool_result", toolUseId: "toolu_1", content: [{ type: "text", text: "const a = 1;" }] },
      { type: "text", text: "here" },
    ]);
  });
});
