import { describe, expect, it } from "vitest";
import { AssistantMessageParser, parseAssistantMessage } from "./assistant-message-parser.js";
import type { ParserOptions } from "./assistant-message-parser.js";
import { parserCases } from "./test-support/cases.js";
import type { ExpectedBlock, ParserCase } from "./test-support/cases.js";
import { cutAt, snapshot, withoutIds } from "./test-support/blocks.js";
import { referenceParse } from "./test-support/reference-parser.js";

function endedOf(parserCase: ParserCase): ExpectedBlock[] {
  return parserCase.ended ?? parserCase.streaming.map((block) => ({ ...block, partial: false }));
}

/**
 * Feeds the pieces one by one; after each push the blocks must equal a
 * one-shot parse of the text so far (P-perf-1), and end() must give `ended`.
 */
function feed(pieces: readonly string[], options: ParserOptions | undefined) {
  const parser = new AssistantMessageParser(options);
  let soFar = "";
  let last: unknown[] = [];
  for (const piece of pieces) {
    soFar += piece;
    const blocks = snapshot(parser.push(piece));
    expect(blocks, `after ${JSON.stringify(soFar)}`).toEqual(parseAssistantMessage(soFar, options));
    last = blocks;
  }
  return { last, ended: snapshot(parser.end()) };
}

function referenceOptions(options: ParserOptions | undefined, final: boolean) {
  return {
    toolNames: [...(options?.toolNames ?? [])],
    parameterNames: [...(options?.parameterNames ?? [])],
    final,
  };
}

describe("parser table: the parsing rules hold at every split point", () => {
  it("has at least 40 cases", () => {
    expect(parserCases.length).toBeGreaterThanOrEqual(40);
  });

  for (const parserCase of parserCases) {
    describe(parserCase.name, () => {
      const { input, options } = parserCase;

      it("one-shot parse gives the expected blocks", () => {
        expect(withoutIds(parseAssistantMessage(input, options))).toEqual(parserCase.streaming);
        const parser = new AssistantMessageParser(options);
        parser.push(input);
        expect(withoutIds(parser.end())).toEqual(endedOf(parserCase));
      });

      it("the reference reading of the rules agrees", () => {
        expect(withoutIds(referenceParse(input, referenceOptions(options, false)))).toEqual(parserCase.streaming);
        expect(withoutIds(referenceParse(input, referenceOptions(options, true)))).toEqual(endedOf(parserCase));
      });

      it("two pieces, cut at every index", () => {
        for (let cut = 0; cut <= input.length; cut += 1) {
          const { last, ended } = feed(cutAt(input, [cut]), options);
          expect(withoutIds(last as never)).toEqual(parserCase.streaming);
          expect(withoutIds(ended)).toEqual(endedOf(parserCase));
        }
      });

      it("one character per push", () => {
        const { last, ended } = feed([...input.split("")], options);
        if (input.length > 0) expect(withoutIds(last as never)).toEqual(parserCase.streaming);
        expect(withoutIds(ended)).toEqual(endedOf(parserCase));
      });
    });
  }
});

describe("rule 7: tool ids", () => {
  const input = "<read_file><path>a</path></read_file> then <execute_command><command>ls</command></execute_command>" + "<write_to_file><path>b</path><content>\nx\n</content></write_to_file>";

  it("are non-empty and unique within the message", () => {
    const tools = parseAssistantMessage(input).filter((block) => block.type === "tool_use");
    expect(tools).toHaveLength(3);
    const ids = tools.map((block) => block.id);
    for (const id of ids) expect(id).not.toBe("");
    expect(new Set(ids).size).toBe(3);
  });

  it("are stable from the first partial appearance to completion", () => {
    const parser = new AssistantMessageParser();
    const firstSeen = new Map<number, string>();
    for (const character of input) {
      const blocks = parser.push(character);
      blocks.forEach((block, index) => {
        if (block.type !== "tool_use") return;
        const seen = firstSeen.get(index);
        if (seen === undefined) firstSeen.set(index, block.id);
        else expect(block.id).toBe(seen);
      });
    }
    const final = parser.end();
    final.forEach((block, index) => {
      if (block.type === "tool_use") expect(block.id).toBe(firstSeen.get(index));
    });
    expect(parseAssistantMessage(input).map((block) => (block.type === "tool_use" ? block.id : ""))).toEqual(final.map((block) => (block.type === "tool_use" ? block.id : "")));
  });
});

describe("T17: end()", () => {
  it("marks every block complete", () => {
    const parser = new AssistantMessageParser();
    parser.push("Hi <write_to_file><path>a</path><content>\npart");
    const blocks = parser.end();
    expect(blocks.every((block) => !block.partial)).toBe(true);
    expect(withoutIds(blocks)).toEqual([
      { type: "text", content: "Hi", partial: false },
      { type: "tool_use", name: "write_to_file", params: { path: "a", content: "part" }, partial: false },
    ]);
  });

  it("gives a held-back text fragment back to its text", () => {
    const parser = new AssistantMessageParser();
    expect(snapshot(parser.push("Reading <read_f"))).toEqual([{ type: "text", content: "Reading", partial: true }]);
    expect(parser.end()).toEqual([{ type: "text", content: "Reading <read_f", partial: false }]);
  });

  it("drops a trailing closing-tag fragment from a parameter value", () => {
    const parser = new AssistantMessageParser();
    parser.push("<execute_command><command>make all</comm");
    expect(withoutIds(parser.end())).toEqual([{ type: "tool_use", name: "execute_command", params: { command: "make all" }, partial: false }]);
  });

  it("ignores pushes after the end and is idempotent", () => {
    const parser = new AssistantMessageParser();
    parser.push("done");
    const ended = snapshot(parser.end());
    expect(snapshot(parser.push(" more <read_file>"))).toEqual(ended);
    expect(snapshot(parser.end())).toEqual(ended);
  });

  it("on an empty parser gives no block", () => {
    expect(new AssistantMessageParser().end()).toEqual([]);
  });
});

describe("reuse and robustness", () => {
  it("P6: returns the same array, updated in place, so callers must copy", () => {
    const parser = new AssistantMessageParser();
    const first = parser.push("Hello");
    const second = parser.push(" world");
    expect(second).toBe(first);
    expect(first).toEqual([{ type: "text", content: "Hello world", partial: true }]);
  });

  it("ignores registered names that could never be written as a tag", () => {
    const parser = new AssistantMessageParser({ toolNames: ["", "a<b", "c/d", "e>f"], parameterNames: [""] });
    expect(snapshot(parser.push("<><a<b></a<b> ok"))).toEqual([{ type: "text", content: "<><a<b></a<b> ok", partial: true }]);
  });

  it("never throws on a chunk that is not a string (callers from plain JavaScript)", () => {
    const parser = new AssistantMessageParser();
    expect(() => parser.push(undefined as unknown as string)).not.toThrow();
    expect(() => parser.push(42 as unknown as string)).not.toThrow();
    expect(parser.push("x")).toEqual([{ type: "text", content: "x", partial: true }]);
  });

  it("trims exactly the characters String.prototype.trim trims", () => {
    for (let code = 0; code < 0x10000; code += 1) {
      const character = String.fromCharCode(code);
      const input = `${character}a${character}`;
      const parser = new AssistantMessageParser();
      parser.push(input);
      expect(parser.end()[0]).toEqual({ type: "text", content: input.trim(), partial: false });
    }
  });
});

describe("options", () => {
  it("never throws on options that are not lists", () => {
    const options = { toolNames: 5, parameterNames: null } as unknown as ParserOptions;
    expect(parseAssistantMessage("<read_file><path>a</path></read_file>", options)).toHaveLength(1);
  });
});
