import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applySearchReplace } from "./apply-blocks.js";
import { parseSearchReplace } from "./parse-blocks.js";

function block(search: string[], replace: string[]): string {
  return ["------- SEARCH", ...search, "=======", ...replace, "+++++++ REPLACE"].join("\n");
}

function apply(original: string, diff: string) {
  return applySearchReplace(original, parseSearchReplace(diff, { final: true }).blocks);
}

interface Case {
  name: string;
  original: string;
  diff: string;
  /** Expected file content, or an expected fragment of the failure message. */
  expected: { content: string } | { failure: string };
}

const code = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n";

const cases: Case[] = [
  { name: "exact single line", original: "a\nb\nc\n", diff: block(["b"], ["B"]), expected: { content: "a\nB\nc\n" } },
  { name: "exact first line", original: "a\nb\nc\n", diff: block(["a"], ["A"]), expected: { content: "A\nb\nc\n" } },
  { name: "exact last line", original: "a\nb\nc\n", diff: block(["c"], ["C"]), expected: { content: "a\nb\nC\n" } },
  { name: "last line without newline", original: "a\nb\nc", diff: block(["c"], ["C"]), expected: { content: "a\nb\nC" } },
  { name: "multi-line replaced by more lines", original: code, diff: block(["  return 1;"], ["  const x = 1;", "  return x;"]), expected: { content: code.replace("  return 1;\n", "  const x = 1;\n  return x;\n") } },
  { name: "empty replace deletes", original: "a\nb\nc\n", diff: block(["b"], []), expected: { content: "a\nc\n" } },
  { name: "delete whole function", original: code, diff: block(["function b() {", "  return 2;", "}"], []), expected: { content: "function a() {\n  return 1;\n}\n\n" } },
  {
    name: "two blocks in order",
    original: code,
    diff: block(["  return 1;"], ["  return 10;"]) + "\n" + block(["  return 2;"], ["  return 20;"]),
    expected: { content: code.replace("return 1;", "return 10;").replace("return 2;", "return 20;") },
  },
  {
    name: "two blocks out of order apply as in file order (#11, as Cline)",
    original: code,
    diff: block(["  return 2;"], ["  return 20;"]) + "\n" + block(["  return 1;"], ["  return 10;"]),
    expected: { content: code.replace("return 1;", "return 10;").replace("return 2;", "return 20;") },
  },
  { name: "overlapping blocks fail", original: code, diff: block(["function b() {", "  return 2;"], ["B"]) + "\n" + block(["  return 2;", "}"], ["C"]), expected: { failure: "must not overlap" } },
  { name: "last block without its REPLACE marker (#11, as Cline)", original: "a\nb\n", diff: "------- SEARCH\nb\n=======\nB", expected: { content: "a\nB\n" } },
  { name: "same text twice: first occurrence", original: "x\ny\nx\n", diff: block(["x"], ["X"]), expected: { content: "X\ny\nx\n" } },
  { name: "same text twice: two blocks take both", original: "x\ny\nx\n", diff: block(["x"], ["X1"]) + "\n" + block(["x"], ["X2"]), expected: { content: "X1\ny\nX2\n" } },
  { name: "line-trimmed: indentation differs", original: "if (a) {\n    go();\n}\n", diff: block(["  go();"], ["    stop();"]), expected: { content: "if (a) {\n    stop();\n}\n" } },
  { name: "line-trimmed: trailing spaces in file", original: "a  \nb\t\nc\n", diff: block(["a", "b"], ["A", "B"]), expected: { content: "A\nB\nc\n" } },
  { name: "line-trimmed: tabs vs spaces", original: "\tx = 1\n\ty = 2\n", diff: block(["    x = 1", "    y = 2"], ["\tx = 3"]), expected: { content: "\tx = 3\n" } },
  { name: "block anchors: middle differs", original: "start {\n  old middle\n}\n", diff: block(["start {", "  something else", "}"], ["start {", "  new", "}"]), expected: { content: "start {\n  new\n}\n" } },
  { name: "block anchors need 3+ lines", original: "start {\nold\n", diff: block(["start {", "other"], ["x"]), expected: { failure: "does not match" } },
  { name: "blank anchor lines do not match by anchors", original: "a\n\nx\n\nb\n", diff: block(["", "y", ""], ["z"]), expected: { failure: "does not match" } },
  { name: "block anchors need same length", original: "a\nb\nc\nd\n", diff: block(["a", "x", "d"], ["z"]), expected: { failure: "does not match" } },
  { name: "no match at all", original: "alpha\nbeta\n", diff: block(["gamma"], ["delta"]), expected: { failure: "No line of the SEARCH section appears" } },
  { name: "near miss shows nearby content", original: "one\ntwo\nthree\nfour\n", diff: block(["two", "THREE"], ["2"]), expected: { failure: "near line 2" } },
  { name: "failure shows numbered lines", original: "one\ntwo\nthree\n", diff: block(["two", "tree"], ["x"]), expected: { failure: "2 | two" } },
  { name: "empty search on empty file", original: "", diff: block([], ["hello"]), expected: { content: "hello\n" } },
  { name: "empty search on whitespace file", original: "\n", diff: block([], ["hello"]), expected: { content: "hello\n" } },
  { name: "empty search on non-empty file fails", original: "a\n", diff: block([], ["b"]), expected: { failure: "empty SEARCH" } },
  { name: "CRLF file keeps CRLF", original: "a\r\nb\r\nc\r\n", diff: block(["b"], ["B", "B2"]), expected: { content: "a\r\nB\r\nB2\r\nc\r\n" } },
  { name: "CRLF file, CRLF diff", original: "a\r\nb\r\n", diff: block(["a"], ["A"]).replace(/\n/g, "\r\n"), expected: { content: "A\r\nb\r\n" } },
  { name: "CRLF file, delete", original: "a\r\nb\r\nc\r\n", diff: block(["b"], []), expected: { content: "a\r\nc\r\n" } },
  { name: "mixed endings left alone", original: "a\r\nb\nc\n", diff: block(["c"], ["C"]), expected: { content: "a\r\nb\nC\n" } },
  { name: "mixed endings trimmed match", original: "a\r\nb\nc\n", diff: block(["a", "b"], ["X"]), expected: { content: "X\nc\n" } },
  { name: "<<<<<<< SEARCH spelling", original: "a\nb\n", diff: "<<<<<<< SEARCH\na\n=======\nA\n>>>>>>> REPLACE", expected: { content: "A\nb\n" } },
  { name: "long markers", original: "a\nb\n", diff: "------------ SEARCH\nb\n==========\nB\n++++++++++ REPLACE", expected: { content: "a\nB\n" } },
  { name: "three-character markers", original: "a\nb\n", diff: "--- SEARCH\nb\n===\nB\n+++ REPLACE", expected: { content: "a\nB\n" } },
  { name: "text around blocks ignored", original: "a\nb\n", diff: "Here is the change:\n" + block(["a"], ["A"]) + "\nDone.", expected: { content: "A\nb\n" } },
  { name: "unicode content", original: "naïve → café\n日本語\n", diff: block(["日本語"], ["にほんご"]), expected: { content: "naïve → café\nにほんご\n" } },
  { name: "replace keeps following text", original: "a\nb\nc\nd\n", diff: block(["b", "c"], ["BC"]), expected: { content: "a\nBC\nd\n" } },
  { name: "partial-line search does not change other text on the line", original: "let x = 1; // keep\n", diff: block(["let x = 1; // keep"], ["let x = 2; // keep"]), expected: { content: "let x = 2; // keep\n" } },
  { name: "blank lines in search", original: "a\n\nb\n", diff: block(["a", "", "b"], ["ab"]), expected: { content: "ab\n" } },
  { name: "insert by repeating anchor line", original: "import a;\nbody\n", diff: block(["import a;"], ["import a;", "import b;"]), expected: { content: "import a;\nimport b;\nbody\n" } },
  { name: "whole file replaced", original: "a\nb\n", diff: block(["a", "b"], ["c"]), expected: { content: "c\n" } },
  { name: "second block fails: nothing applied", original: "a\nb\n", diff: block(["a"], ["A"]) + "\n" + block(["zzz"], ["Z"]), expected: { failure: "block 2" } },
  { name: "regex characters are literal", original: "x = a.*b(c)\n", diff: block(["x = a.*b(c)"], ["x = 1"]), expected: { content: "x = 1\n" } },
  { name: "dollar signs in replace are literal", original: "a\n", diff: block(["a"], ["$1 $& $$"]), expected: { content: "$1 $& $$\n" } },
  { name: "exact match preferred over an earlier trimmed one", original: "  x\nx\n", diff: block(["x"], ["y"]), expected: { content: "  x\ny\n" } },
  { name: "trimmed match after previous block", original: "k\n  v\nk\n  v\n", diff: block(["k"], ["K"]) + "\n" + block(["v"], ["V"]), expected: { content: "K\nV\nk\n  v\n" } },
  { name: "search with trailing blank line", original: "a\n\nb\n", diff: block(["a", ""], ["A"]), expected: { content: "A\nb\n" } },
];

describe("SEARCH/REPLACE engine", () => {
  it("has at least 40 table cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  for (const testCase of cases) {
    it(testCase.name, () => {
      const result = apply(testCase.original, testCase.diff);
      if ("content" in testCase.expected) {
        expect(result.ok ? result.content : result.message).toBe(testCase.expected.content);
      } else {
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.message).toContain(testCase.expected.failure);
      }
    });
  }

  it("reports which strategy matched and where", () => {
    const result = apply("a\n  b\nc\n", block(["b"], ["B"]));
    expect(result.ok && result.matches).toEqual([{ startLine: 2, endLine: 2, strategy: "line-trimmed" }]);
  });

  it("property: a block cut from the file itself always applies and changes exactly that span", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.string({ unit: "grapheme-ascii", maxLength: 12 }).map((line) => line.replace(/[\r\n]/g, "")),
          { minLength: 1, maxLength: 30 },
        ),
        fc.nat(),
        fc.nat(),
        fc.array(
          fc.string({ maxLength: 10 }).map((line) => line.replace(/[\r\n]/g, "")),
          { maxLength: 5 },
        ),
        fc.boolean(),
        (lines, startSeed, lengthSeed, replacement, crlf) => {
          // Markers inside the content would be read as markers.
          fc.pre(lines.every((line) => !/^\s*([-<=+>])\1\1/.test(line)) && replacement.every((line) => !/^\s*([-<=+>])\1\1/.test(line)));
          const start = startSeed % lines.length;
          const length = 1 + (lengthSeed % (lines.length - start));
          const search = lines.slice(start, start + length);
          // Unique lines, but a trimmed-equal earlier line could still match first: require a unique exact span.
          const newline = crlf ? "\r\n" : "\n";
          const original = lines.map((line) => line + newline).join("");
          const spanText = search.map((line) => line + newline).join("");
          fc.pre(
            original.indexOf(spanText) ===
              lines
                .slice(0, start)
                .map((line) => line + newline)
                .join("").length,
          );
          const result = apply(original, block(search, replacement));
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          const expected = [...lines.slice(0, start), ...replacement, ...lines.slice(start + length)].map((line) => line + newline).join("");
          expect(result.content).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: a failing edit leaves the text untouched (no partial result)", () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-m]{0,8}$/), { minLength: 1, maxLength: 20 }), (lines) => {
        const original = lines.join("\n") + "\n";
        const result = apply(original, block([lines[0] ?? ""], ["X"]) + "\n" + block(["ZZZ-not-there"], ["Y"]));
        expect(result.ok).toBe(false);
      }),
    );
  });
});
