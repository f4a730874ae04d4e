import { afterEach, describe, expect, it } from "vitest";
import { AnthropicProvider } from "../llm/anthropic.js";
import { modelInfo } from "../llm/models.js";
import { NativeToolCallAssembler } from "../llm/native-tool-calls.js";
import { recording, startReplayServer } from "../llm/test-support/replay-server.js";
import type { ReplayServer } from "../llm/test-support/replay-server.js";
import { makeTask } from "./test-support/make-task.js";

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("Anthropic thinking and redacted_thinking kept exactly (recorded stream)", () => {
  it("each thinking and redacted_thinking block goes back with its own signature or data, in order, with the tool result", async () => {
    server = await startReplayServer([recording("anthropic-thinking-redacted-tool.sse"), recording("anthropic-completion-tool.sse")]);
    const provider = new AnthropicProvider({ apiKey: "k", model: modelInfo("claude-sonnet-4-5-20250929"), baseUrl: server.url, thinkingBudgetTokens: 2048 });
    const { task, tools } = makeTask([], {
      yes: true,
      protocol: "native",
      extra: { provider, createNativeToolCalls: () => new NativeToolCallAssembler() },
    });
    const result = await task.startTask("change the config");
    expect(result.status).toBe("completed");
    expect(tools.calls.map((call) => call.name)).toEqual(["read_file", "attempt_completion"]);
    const second = server.bodies[1] as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    const assistant = second.messages[1]!;
    expect(assistant.role).toBe("assistant");
    expect(assistant.content.map((block) => block["type"])).toEqual(["thinking", "redacted_thinking", "redacted_thinking", "thinking", "text", "tool_use"]);
    expect(assistant.content[0]).toEqual({
      type: "thinking",
      thinking: "I should look at the config before changing it.",
      signature: "ErUBCkYIBxgCIkBthinkingsignatureONE0aGlua2luZw==",
    });
    expect(assistant.content[1]).toEqual({ type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPREDACTEDone" });
    expect(assistant.content[2]).toEqual({ type: "redacted_thinking", data: "EmwKAhgBEgxCsk9yQ6pVw2nLmRAaDREDACTEDtwoTQ1N2NhYzJjZDM0" });
    expect(assistant.content[3]).toEqual({ type: "thinking", thinking: "Then read it.", signature: "ErUBCkYIBxgCIkBthinkingsignatureTWOdGhlbiByZWFk" });
    expect(assistant.content[5]).toMatchObject({ type: "tool_use", id: "toolu_01RdT5qP8mZx3NvK6wLc2YbA", name: "read_file", input: { path: "config.json" } });
    const results = second.messages[2]!;
    expect(results.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_01RdT5qP8mZx3NvK6wLc2YbA" });
  });
});
