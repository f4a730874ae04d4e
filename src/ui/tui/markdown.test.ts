import { describe, expect, it } from "vitest";
import { initialMarkdownState, parseInline, parseMarkdownLines } from "./markdown.js";

describe("markdown lines", () => {
  it("reads headings, lists, quotes, rules and paragraphs", () => {
    const { lines } = parseMarkdownLines(["## Plan", "- read the test", "  2. fix it", "> note", "---", "plain text", ""], initialMarkdownState);
    expect(lines.map((line) => line.kind)).toEqual(["heading", "list", "list", "quote", "rule", "paragraph", "blank"]);
    expect(lines[0]).toEqual({ kind: "heading", level: 2, spans: [{ text: "Plan" }] });
    expect(lines[1]).toMatchObject({ bullet: "•", indent: 0 });
    expect(lines[2]).toMatchObject({ bullet: "2.", indent: 2 });
  });

  it("keeps code fences open across calls, so lines can be read one batch at a time", () => {
    const first = parseMarkdownLines(["```ts", "const a = **b**;"], initialMarkdownState);
    expect(first.state.fence).toEqual({ marker: "```", language: "ts" });
    expect(first.lines[1]).toEqual({ kind: "code", text: "const a = **b**;" });
    const second = parseMarkdownLines(["# not a heading", "```", "# a heading"], first.state);
    expect(second.lines.map((line) => line.kind)).toEqual(["code", "fence-close", "heading"]);
    expect(second.state.fence).toBeUndefined();
  });

  it("expands tabs and drops escape sequences from model text", () => {
    const { lines } = parseMarkdownLines(["```", "\tindented\u001b[31m red\u001b[0m"], initialMarkdownState);
    expect(lines[1]).toEqual({ kind: "code", text: "    indented red" });
  });
});

describe("inline markdown", () => {
  it("reads bold, italic, code and links", () => {
    expect(parseInline("a **bold** and *it* with `x*y` see [docs](https://x.dev)")).toEqual([
      { text: "a " },
      { text: "bold", bold: true },
      { text: " and " },
      { text: "it", italic: true },
      { text: " with " },
      { text: "x*y", code: true },
      { text: " see " },
      { text: "docs", link: true },
      { text: " (https://x.dev)", italic: true },
    ]);
  });

  it("leaves unmatched markers and snake_case alone", () => {
    expect(parseInline("2 * 3 and my_var_name and **open")).toEqual([{ text: "2 * 3 and my_var_name and **open" }]);
  });

  it("nests italic inside bold", () => {
    expect(parseInline("**very *much* so**")).toEqual([
      { text: "very ", bold: true },
      { text: "much", bold: true, italic: true },
      { text: " so", bold: true },
    ]);
  });
});
