import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PartialJsonObjectReader, parseArguments, toStringParams } from "./partial-json.js";

function splitAt(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((left, right) => left - right);
  const pieces: string[] = [];
  let start = 0;
  for (const point of points) {
    pieces.push(text.slice(start, point));
    start = point;
  }
  pieces.push(text.slice(start));
  return pieces;
}

const jsonValue = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.string(), { maxKeys: 2 }),
);

describe("PartialJsonObjectReader", () => {
  it("shows string values while they stream, and other values once complete", () => {
    const reader = new PartialJsonObjectReader();
    const seen: Array<Record<string, string>> = [];
    for (const piece of ['{"pa', 'th": "src/', 'a.ts", "line', 's": [1, ', "2]", ', "content": "x\\', "ny\\u00", "e9", '"}']) {
      reader.feed(piece);
      seen.push(reader.snapshot());
    }
    expect(seen).toEqual([
      {},
      { path: "src/" },
      { path: "src/a.ts" },
      { path: "src/a.ts" },
      { path: "src/a.ts" },
      { path: "src/a.ts", lines: "[1,2]", content: "x" },
      { path: "src/a.ts", lines: "[1,2]", content: "x\ny" },
      { path: "src/a.ts", lines: "[1,2]", content: "x\nyé" },
      { path: "src/a.ts", lines: "[1,2]", content: "x\nyé" },
    ]);
    expect(reader.invalid).toBe(false);
  });

  it("P-perf-1: any split gives the one-shot result, and every partial string is a prefix of its final value", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), jsonValue, { maxKeys: 5 }), fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (object, cuts, spaced) => {
        const text = JSON.stringify(object, null, spaced ? 2 : undefined);
        const expected = toStringParams(JSON.parse(text) as Record<string, unknown>);
        const reader = new PartialJsonObjectReader();
        for (const piece of splitAt(text, cuts)) {
          reader.feed(piece);
          for (const [key, value] of Object.entries(reader.snapshot())) {
            const final = expected[key];
            expect(final).toBeDefined();
            if (typeof (JSON.parse(text) as Record<string, unknown>)[key] === "string") expect(final!.startsWith(value)).toBe(true);
            else expect(value).toBe(final);
          }
        }
        expect(reader.invalid).toBe(false);
        expect(reader.snapshot()).toEqual(expected);
      }),
    );
  });

  it("notices text that cannot be an object", () => {
    for (const text of ["[1]", '{"a" 1}', '{"a": tru,', '{"a": "\\q"}', '{"a": 1}}']) {
      const reader = new PartialJsonObjectReader();
      reader.feed(text);
      expect(reader.invalid).toBe(true);
    }
  });
});

describe("parseArguments", () => {
  it("accepts empty text as no arguments and refuses non-objects and broken JSON", () => {
    expect(parseArguments("  ")).toEqual({ valid: true, input: {} });
    expect(parseArguments('{"a":1}')).toEqual({ valid: true, input: { a: 1 } });
    expect(parseArguments("[1]")).toEqual({ valid: false, raw: "[1]" });
    expect(parseArguments('{"a":')).toEqual({ valid: false, raw: '{"a":' });
  });
});
