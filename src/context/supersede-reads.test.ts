import { describe, expect, it } from "vitest";
import type { Message } from "../llm/types.js";
import { supersededReadNote, supersedeFileReads } from "./supersede-reads.js";

const big = (label: string): string => `${label}\n${"x".repeat(500)}`;

describe("supersedeFileReads replaces earlier reads of a re-read file (the cheap step of compaction)", () => {
  it("native protocol: an earlier read of a file read again later becomes a one-line note; the latest read stays", () => {
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "<task>fix it</task>" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "r1", name: "read_file", input: { path: "a.ts" } }] },
      { role: "user", content: [{ type: "tool_result", toolUseId: "r1", content: big("old a") }] },
      { role: "assistant", content: [{ type: "tool_use", id: "r2", name: "read_file", input: { path: "b.ts" } }] },
      { role: "user", content: [{ type: "tool_result", toolUseId: "r2", content: big("only b") }] },
      { role: "assistant", content: [{ type: "tool_use", id: "r3", name: "read_file", input: { path: "a.ts" } }] },
      { role: "user", content: [{ type: "tool_result", toolUseId: "r3", content: big("new a") }] },
    ];
    const result = supersedeFileReads(messages);
    expect(result.replaced).toBe(1);
    expect(result.messages[2]?.content[0]).toEqual({ type: "tool_result", toolUseId: "r1", content: supersededReadNote("a.ts") });
    expect(result.messages[4]).toBe(messages[4]);
    expect(result.messages[6]).toBe(messages[6]);
    // Idempotent: a second pass has nothing left to replace.
    expect(supersedeFileReads(result.messages).replaced).toBe(0);
  });

  it("xml protocol: the result text after `[read_file for 'path'] Result:` is replaced", () => {
    const read = (path: string): Message => ({ role: "assistant", content: [{ type: "text", text: `<read_file>\n<path>${path}</path>\n</read_file>` }] });
    const result = (path: string, body: string): Message => ({
      role: "user",
      content: [
        { type: "text", text: `[read_file for '${path}'] Result:` },
        { type: "text", text: body },
        { type: "text", text: "<environment_details>x</environment_details>" },
      ],
    });
    const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "<task>t</task>" }] }, read("src/a.ts"), result("src/a.ts", big("first")), read("src/a.ts"), result("src/a.ts", big("second"))];
    const output = supersedeFileReads(messages);
    expect(output.replaced).toBe(1);
    expect(output.messages[2]?.content[1]).toEqual({ type: "text", text: supersededReadNote("src/a.ts") });
    expect(output.messages[2]?.content[2]).toEqual(messages[2]?.content[2]);
    expect(output.messages[4]).toBe(messages[4]);
  });
});
