import { describe, expect, it } from "vitest";
import { ensureToolResultPairing, interruptedToolResultText } from "./tool-result-pairing.js";
import type { Message } from "./types.js";

const use = (id: string) => ({ type: "tool_use" as const, id, name: "read_file", input: { path: id } });
const result = (id: string, content = `result ${id}`) => ({ type: "tool_result" as const, toolUseId: id, content });

describe("ensureToolResultPairing", () => {
  it("adds an interrupted error result for a tool use without one, in the user turn that follows", () => {
    const history: Message[] = [
      { role: "user", content: [{ type: "text", text: "task" }] },
      { role: "assistant", content: [use("a"), use("b")] },
      { role: "user", content: [{ type: "text", text: "go on" }, result("b")] },
    ];
    const paired = ensureToolResultPairing(history);
    expect(paired[2]!.content).toEqual([{ type: "tool_result", toolUseId: "a", content: interruptedToolResultText, isError: true }, result("b"), { type: "text", text: "go on" }]);
    expect(history[2]!.content).toHaveLength(2);
  });

  it("inserts a user turn when the assistant turn with tool uses is last or followed by another assistant turn", () => {
    const paired = ensureToolResultPairing([
      { role: "assistant", content: [use("a")] },
      { role: "assistant", content: [use("b")] },
    ]);
    expect(paired.map((message) => message.role)).toEqual(["assistant", "user", "assistant", "user"]);
    expect(paired[3]!.content).toEqual([{ type: "tool_result", toolUseId: "b", content: interruptedToolResultText, isError: true }]);
  });

  it("keeps an orphan result as text and drops a duplicate", () => {
    const paired = ensureToolResultPairing([
      { role: "assistant", content: [use("a")] },
      { role: "user", content: [result("a"), result("a", "again"), result("zzz", "lost output")] },
    ]);
    expect(paired[1]!.content).toEqual([result("a"), { type: "text", text: "[result of tool call zzz, which is not in the history]\nlost output" }]);
  });
});
