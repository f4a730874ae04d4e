import { describe, expect, it } from "vitest";
import { NativeToolCallAssembler } from "../llm/native-tool-calls.js";
import type { Chunk } from "../llm/types.js";
import { complete, makeTask, messageText } from "./test-support/make-task.js";
import { text, textChunks } from "./test-support/gated-provider.js";

const stop = (reason: string): Chunk => ({ type: "stop", reason });
const read = (path: string): string => `<read_file>\n<path>${path}</path>\n</read_file>`;
const cutWrite = "<write_to_file>\n<path>big.ts</path>\n<content>\nexport const a = 1;\nexport const b =";

describe("a tool left open by the output-token limit is not run", () => {
  it("xml: the tool block left open at a max_tokens stop is not run; the user sees why; the model is told to split the work", async () => {
    const { task, provider, tools, host } = makeTask([[...textChunks(`I will write it.\n${cutWrite}`, 9), stop("max_tokens")], textChunks(complete(), 5)], {
      yes: true,
    });
    const result = await task.startTask("write big.ts");
    expect(result.status).toBe("completed");
    expect(tools.calls.map((call) => call.name)).toEqual(["attempt_completion"]);
    const toModel = messageText(provider.requests[1]!.messages.at(-1));
    expect(toModel).toContain("write_to_file was not executed");
    expect(toModel).toMatch(/output.token limit/i);
    expect(toModel).toMatch(/split/i);
    const shown = [...host.says("warning"), ...host.says("error")].map((message) => message.text).join("\n");
    expect(shown).toMatch(/write_to_file.*not run.*output.token limit/i);
  });

  it("xml: a complete tool before the cut still runs; only the open one is skipped", async () => {
    const { task, provider, tools } = makeTask([[...textChunks(`${read("a.ts")}\n${cutWrite}`, 9), stop("max_tokens")], textChunks(complete(), 5)], {
      yes: true,
      parallelTools: true,
    });
    await task.startTask("t");
    expect(tools.calls.map((call) => call.name)).toEqual(["read_file", "attempt_completion"]);
    const toModel = messageText(provider.requests[1]!.messages.at(-1));
    expect(toModel).toContain("contents of a.ts");
    expect(toModel).toContain("write_to_file was not executed");
  });

  it("xml: without a max_tokens stop, an open block is still completed and runs (T17)", async () => {
    const { task, tools } = makeTask([[...textChunks(cutWrite, 9), stop("end_turn")], textChunks(complete(), 5)], { yes: true });
    await task.startTask("t");
    expect(tools.calls.map((call) => call.name)).toEqual(["write_to_file", "attempt_completion"]);
  });

  it("native: a tool call with incomplete JSON arguments at a max_tokens stop is not run, and its pair stays whole", async () => {
    const cut: Chunk[] = [
      text("Writing."),
      { type: "tool_call", index: 0, id: "call_1", name: "write_to_file", argumentsDelta: '{"path":"big.ts","content":"export const a' },
      { type: "tool_call", index: 0, argumentsDelta: " = 1;\\nexport" },
      stop("max_tokens"),
    ];
    const finish: Chunk[] = [{ type: "tool_call", index: 0, id: "call_2", name: "attempt_completion", argumentsDelta: '{"result":"ok"}' }];
    const { task, provider, tools } = makeTask([cut, finish], {
      yes: true,
      protocol: "native",
      extra: { createNativeToolCalls: () => new NativeToolCallAssembler() },
    });
    const result = await task.startTask("t");
    expect(result.status).toBe("completed");
    expect(tools.calls.map((call) => call.name)).toEqual(["attempt_completion"]);
    const [, assistant, results] = provider.requests[1]!.messages;
    expect(assistant!.content.filter((block) => block.type === "tool_use").map((block) => block.type === "tool_use" && block.id)).toEqual(["call_1"]);
    const result1 = results!.content.find((block) => block.type === "tool_result");
    expect(result1).toMatchObject({ type: "tool_result", toolUseId: "call_1", isError: true });
    expect(messageText(results)).toMatch(/output.token limit/i);
  });
});
