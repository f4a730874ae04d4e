import { describe, expect, it } from "vitest";
import { MarkdownStream } from "./markdown-stream.js";

describe("MarkdownStream", () => {
  it("hands back each complete line once, and the unfinished one as plain text", () => {
    const stream = new MarkdownStream();
    expect(stream.update("# Ti", false)).toEqual({ reset: false, lines: [], tail: "# Ti", tailInCode: false });
    const second = stream.update("# Title\nsome **bold", false);
    expect(second.lines).toEqual([{ kind: "heading", level: 1, spans: [{ text: "Title" }] }]);
    expect(second.tail).toBe("some **bold");
    const third = stream.update("# Title\nsome **bold** text\n\n", false);
    expect(third.lines).toEqual([{ kind: "paragraph", spans: [{ text: "some " }, { text: "bold", bold: true }, { text: " text" }] }, { kind: "blank" }]);
    expect(third.tail).toBe("");
  });

  it("keeps a code fence open across updates, and says the tail is code", () => {
    const stream = new MarkdownStream();
    stream.update("```ts\nconst a = 1;\n", false);
    const inside = stream.update("```ts\nconst a = 1;\n// *not emphasis*\nlet b", false);
    expect(inside.lines).toEqual([{ kind: "code", text: "// *not emphasis*" }]);
    expect(inside).toMatchObject({ tail: "let b", tailInCode: true });
    const closed = stream.update("```ts\nconst a = 1;\n// *not emphasis*\nlet b\n```\nafter", true);
    expect(closed.lines).toEqual([{ kind: "code", text: "let b" }, { kind: "fence-close" }, { kind: "paragraph", spans: [{ text: "after" }] }]);
    expect(closed).toMatchObject({ reset: false, tail: "", tailInCode: false });
  });

  it("starts over when the text was rewritten rather than extended", () => {
    const stream = new MarkdownStream();
    stream.update("<thinking>x</thinking>\nHello\n", false);
    const rewritten = stream.update("Hello\nworld", true);
    expect(rewritten.reset).toBe(true);
    expect(rewritten.lines.map((line) => line.kind)).toEqual(["paragraph", "paragraph"]);
  });

  it("reads a long answer in one pass: each update parses only what was appended", () => {
    const stream = new MarkdownStream();
    let text = "";
    let lines = 0;
    for (let index = 0; index < 2000; index += 1) {
      text += `- item ${index}\n`;
      lines += stream.update(text, false).lines.length;
    }
    lines += stream.update(text, true).lines.length;
    expect(lines).toBe(2000);
  });
});
