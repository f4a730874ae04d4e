import { describe, expect, it } from "vitest";
import { StreamAssembler } from "./stream-assembler.js";

const shape = (assembler: StreamAssembler): string =>
  assembler
    .toArray()
    .map((block) => `${block.type}:${block.partial}`)
    .join();

describe("deltas that only make the last block longer are taken in lazily", () => {
  it("xml text: growth is parsed when the blocks are read, and readers see every delta", () => {
    const assembler = new StreamAssembler({ protocol: "xml", parser: {} });
    expect(assembler.pushText("  ")).toBe(true); // nothing listed yet: the next text makes a block
    expect(assembler.pushText("Hello")).toBe(true);
    expect(assembler.pushText(", world")).toBe(false);
    expect(assembler.pushText(" and more")).toBe(false);
    expect(assembler.length).toBe(1);
    expect(assembler.at(0)).toMatchObject({ type: "text", content: "Hello, world and more", partial: true });
    expect(assembler.pushText(" then <read_")).toBe(true); // a `<` may start a tag: parsed at once
    expect(assembler.pushText("file>")).toBe(true); // something is held back
    expect(shape(assembler)).toBe("text:false,tool_use:true");
    expect(assembler.pushText("<path>src/a")).toBe(true);
    expect(assembler.pushText(".ts and b")).toBe(false); // a growing parameter
    expect(assembler.at(1)).toMatchObject({ params: { path: "src/a.ts and b" }, partial: true });
    expect(assembler.pushText("</path></read_file>")).toBe(true);
    expect(assembler.pushText(" Done")).toBe(true);
    assembler.pushText(" here");
    expect(assembler.rawText()).toBe("  Hello, world and more then <read_file><path>src/a.ts and b</path></read_file> Done here");
    assembler.finish();
    expect(assembler.toArray().map((block) => (block.type === "text" ? block.content : block.type))).toEqual(["Hello, world and more then", "tool_use", "Done here"]);
  });

  it("plain text and reasoning (native protocol): the first delta shapes, the rest only grow", () => {
    const assembler = new StreamAssembler({ protocol: "native", parser: {} });
    expect(assembler.pushReasoning({ type: "reasoning", text: "Think" })).toBe(true);
    expect(assembler.pushReasoning({ type: "reasoning", text: "ing" })).toBe(false);
    expect(assembler.at(0)).toMatchObject({ type: "reasoning", content: "Thinking" });
    expect(assembler.pushText("An")).toBe(true);
    expect(assembler.pushText("swer")).toBe(false);
    expect(shape(assembler)).toBe("reasoning:false,text:true");
    expect(assembler.at(1)).toMatchObject({ content: "Answer" });
    assembler.pushText(" ends.");
    assembler.finish();
    expect(assembler.toArray().map((block) => (block.type === "tool_use" ? block.name : block.content))).toEqual(["Thinking", "Answer ends."]);
    expect(assembler.rawText()).toBe("Answer ends.");
  });
});
