import { describe, expect, it } from "vitest";
import { NativeToolCallAssembler, invalidArgumentsParam } from "./native-tool-calls.js";
import { MockProvider } from "./scripted/mock-provider.js";
import { simpleRequest } from "./test-support/chunks.js";

describe("NativeToolCallAssembler", () => {
  it("shows parameters while the arguments stream, with a stable id, and completes a call when the next starts", () => {
    const assembler = new NativeToolCallAssembler();
    expect(assembler.push({ type: "tool_call", index: 0, id: "toolu_1", name: "write_to_file", argumentsDelta: "" })).toEqual({
      type: "tool_use",
      id: "toolu_1",
      name: "write_to_file",
      params: {},
      partial: true,
    });
    assembler.push({ type: "tool_call", index: 0, argumentsDelta: '{"path":"a.txt","con' });
    expect(assembler.push({ type: "tool_call", index: 0, argumentsDelta: 'tent":"hel' })).toMatchObject({
      id: "toolu_1",
      params: { path: "a.txt", content: "hel" },
      partial: true,
    });
    assembler.push({ type: "tool_call", index: 0, argumentsDelta: 'lo","mode":420}' });
    assembler.push({ type: "tool_call", index: 1, id: "toolu_2", name: "read_file", argumentsDelta: '{"path":"b' });
    expect(assembler.blocks()).toEqual([
      { type: "tool_use", id: "toolu_1", name: "write_to_file", params: { path: "a.txt", content: "hello", mode: "420" }, partial: false },
      { type: "tool_use", id: "toolu_2", name: "read_file", params: { path: "b" }, partial: true },
    ]);
    assembler.push({ type: "tool_call", index: 1, argumentsDelta: '.txt"}' });
    expect(assembler.finish().map((block) => block.partial)).toEqual([false, false]);
    expect(assembler.toolUses()).toEqual([
      { type: "tool_use", id: "toolu_1", name: "write_to_file", input: { path: "a.txt", content: "hello", mode: 420 } },
      { type: "tool_use", id: "toolu_2", name: "read_file", input: { path: "b.txt" } },
    ]);
  });

  it("generates an id when the server sends none and keeps ids unique", () => {
    let counter = 0;
    const assembler = new NativeToolCallAssembler({ generateId: () => `generated_${(counter += 1)}` });
    assembler.push({ type: "tool_call", index: 0, name: "a", argumentsDelta: "{}" });
    assembler.push({ type: "tool_call", index: 1, id: "call_0", name: "b", argumentsDelta: "{}" });
    assembler.push({ type: "tool_call", index: 2, id: "call_0", name: "c", argumentsDelta: "" });
    expect(assembler.finish().map((block) => block.id)).toEqual(["generated_1", "call_0", "call_0_2"]);
  });

  it("reports invalid arguments in __invalid_arguments so the Task can count a mistake", () => {
    const assembler = new NativeToolCallAssembler();
    assembler.push({ type: "tool_call", index: 0, id: "x", name: "read_file", argumentsDelta: '{"path": "a.ts"' });
    const [block] = assembler.finish();
    expect(block).toMatchObject({ partial: false, params: { [invalidArgumentsParam]: '{"path": "a.ts"' } });
    expect(assembler.toolUses()[0]!.input).toEqual({});
  });

  it("assembles what a provider streams into the blocks a one-shot parse gives", async () => {
    const calls = [
      { id: "c1", name: "replace_in_file", arguments: { path: "x.ts", diff: "------- SEARCH\na\n=======\nb\n+++++++ REPLACE", dry: false } },
      { id: "c2", name: "attempt_completion", arguments: { result: "done ✓" } },
    ];
    const provider = new MockProvider({ scenario: { turns: [{ toolCalls: calls, chunkSize: 1 }] } });
    const assembler = new NativeToolCallAssembler();
    for await (const chunk of provider.createMessage(simpleRequest())) {
      if (chunk.type === "tool_call") assembler.push(chunk);
    }
    expect(assembler.finish()).toEqual([
      { type: "tool_use", id: "c1", name: "replace_in_file", params: { path: "x.ts", diff: calls[0]!.arguments.diff, dry: "false" }, partial: false },
      { type: "tool_use", id: "c2", name: "attempt_completion", params: { result: "done ✓" }, partial: false },
    ]);
  });
});
