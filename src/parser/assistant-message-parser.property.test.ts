import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AssistantMessageParser, parseAssistantMessage } from "./assistant-message-parser.js";
import type { Block } from "./types.js";
import { answerText, cutFractions, cutIndexes, registeredNames, verbatimValueAnswer } from "./test-support/arbitraries.js";
import { cutAt, snapshot } from "./test-support/blocks.js";
import { referenceParse } from "./test-support/reference-parser.js";

/** Invariants every result must keep, whatever the input. */
function expectWellFormed(blocks: readonly Block[]): void {
  blocks.forEach((block, index) => {
    if (index < blocks.length - 1) expect(block.partial).toBe(false);
    if (block.type === "text") {
      expect(block.content).not.toBe("");
      expect(block.content).toBe(block.content.trim());
    }
  });
  const ids = blocks.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
  for (const id of ids) expect(id).not.toBe("");
  expect(new Set(ids).size).toBe(ids.length);
}

describe("parser properties (P-perf-1)", () => {
  it("after every push the blocks equal a one-shot parse and the reference reading of the text so far", () => {
    fc.assert(
      fc.property(answerText, cutFractions, fc.boolean(), (text, fractions, register) => {
        const options = register ? registeredNames : {};
        const parser = new AssistantMessageParser(options);
        let soFar = "";
        for (const piece of cutAt(text, cutIndexes(text.length, fractions))) {
          soFar += piece;
          const blocks = snapshot(parser.push(piece));
          expect(blocks).toEqual(parseAssistantMessage(soFar, options));
          expect(blocks).toEqual(referenceParse(soFar, options));
          expectWellFormed(blocks);
        }
        const ended = snapshot(parser.end());
        expect(ended).toEqual(referenceParse(text, { ...options, final: true }));
        expect(ended.every((block) => !block.partial)).toBe(true);
        expectWellFormed(ended);
      }),
      { numRuns: 1500 },
    );
  });

  it("a content or diff value holding its own closing tag (twice or more): chunked, one-shot and reference parses agree", () => {
    fc.assert(
      fc.property(verbatimValueAnswer, cutFractions, (text, fractions) => {
        const parser = new AssistantMessageParser();
        let soFar = "";
        for (const piece of cutAt(text, cutIndexes(text.length, fractions))) {
          soFar += piece;
          const blocks = snapshot(parser.push(piece));
          expect(blocks).toEqual(parseAssistantMessage(soFar));
          expect(blocks).toEqual(referenceParse(soFar));
        }
        expect(snapshot(parser.end())).toEqual(referenceParse(text, { final: true }));
        const oneShot = new AssistantMessageParser();
        oneShot.push(text);
        expect(snapshot(oneShot.end())).toEqual(referenceParse(text, { final: true }));
      }),
      { numRuns: 1500 },
    );
  });

  it("a chunk onlyGrows accepts changes neither how many blocks there are nor which are complete, and may be pushed later, joined", () => {
    fc.assert(
      fc.property(answerText, cutFractions, (text, fractions) => {
        const everyChunk = new AssistantMessageParser(registeredNames);
        const deferring = new AssistantMessageParser(registeredNames);
        let deferred = "";
        let shape = "";
        for (const piece of cutAt(text, cutIndexes(text.length, fractions))) {
          const grows = deferring.onlyGrows(piece);
          const blocks = everyChunk.push(piece);
          const shapeNow = blocks.map((block) => `${block.type}:${block.partial}`).join();
          if (grows) {
            expect(shapeNow).toBe(shape);
            deferred += piece;
            continue;
          }
          shape = shapeNow;
          expect(snapshot(deferring.push(deferred + piece))).toEqual(snapshot(blocks));
          deferred = "";
        }
        deferring.push(deferred);
        expect(snapshot(deferring.end())).toEqual(snapshot(everyChunk.end()));
      }),
      { numRuns: 1500 },
    );
  });

  it("one character per push equals a one-shot parse at every prefix", () => {
    fc.assert(
      fc.property(answerText, (text) => {
        const parser = new AssistantMessageParser(registeredNames);
        let soFar = "";
        for (const character of text) {
          soFar += character;
          expect(snapshot(parser.push(character))).toEqual(parseAssistantMessage(soFar, registeredNames));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on any text, cut anywhere, including lone surrogates", () => {
    const anyText = fc.oneof(answerText, fc.string({ unit: "binary", maxLength: 200 }), fc.string({ unit: fc.constantFrom("<", "/", ">", "a", "\n") }));
    fc.assert(
      fc.property(anyText, cutFractions, (text, fractions) => {
        expect(() => {
          const parser = new AssistantMessageParser();
          for (const piece of cutAt(text, cutIndexes(text.length, fractions))) expectWellFormed(parser.push(piece));
          expectWellFormed(parser.end());
          parseAssistantMessage(text);
        }).not.toThrow();
      }),
      { numRuns: 1500 },
    );
  });
});
