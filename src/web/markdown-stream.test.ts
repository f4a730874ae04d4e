import { describe, expect, it } from "vitest";
import { MarkdownStream } from "./markdown-stream.js";

/** Every line the update completed, and the tail. */
function read(stream: MarkdownStream, text: string, final = false) {
  const { reset } = stream.update(text, final);
  return { reset, lines: stream.take(Number.MAX_SAFE_INTEGER), tail: stream.tail.text, tailInCode: stream.tail.inCode };
}

describe("MarkdownStream", () => {
  it("hands out each complete line once, and keeps the unfinished one as plain text", () => {
    const stream = new MarkdownStream();
    expect(read(stream, "# Ti")).toEqual({ reset: false, lines: [], tail: "# Ti", tailInCode: false });
    const second = read(stream, "# Title\nsome **bold");
    expect(second.lines).toEqual([{ kind: "heading", level: 1, spans: [{ text: "Title" }] }]);
    expect(second.tail).toBe("some **bold");
    const third = read(stream, "# Title\nsome **bold** text\n\n");
    expect(third.lines).toEqual([{ kind: "paragraph", spans: [{ text: "some " }, { text: "bold", bold: true }, { text: " text" }] }, { kind: "blank" }]);
    expect(third.tail).toBe("");
  });

  it("keeps a code fence open across updates, and says the tail is code", () => {
    const stream = new MarkdownStream();
    read(stream, "```ts\nconst a = 1;\n");
    const inside = read(stream, "```ts\nconst a = 1;\n// *not emphasis*\nlet b");
    expect(inside.lines).toEqual([{ kind: "code", text: "// *not emphasis*" }]);
    expect(inside).toMatchObject({ tail: "let b", tailInCode: true });
    const closed = read(stream, "```ts\nconst a = 1;\n// *not emphasis*\nlet b\n```\nafter", true);
    expect(closed.lines).toEqual([{ kind: "code", text: "let b" }, { kind: "fence-close" }, { kind: "paragraph", spans: [{ text: "after" }] }]);
    expect(closed).toMatchObject({ reset: false, tail: "", tailInCode: false });
  });

  it("hands out a burst a few lines at a time, in order, across updates", () => {
    const stream = new MarkdownStream();
    stream.update("one\ntwo\nthree\n", false);
    expect(stream.take(2).map((line) => line.kind === "paragraph" && line.spans[0]?.text)).toEqual(["one", "two"]);
    stream.update("one\ntwo\nthree\nfour\nfi", false);
    expect(stream.pending).toBe(2);
    expect(stream.take(10).map((line) => line.kind === "paragraph" && line.spans[0]?.text)).toEqual(["three", "four"]);
    expect(stream.tail.text).toBe("fi");
  });

  it("starts over when the text was rewritten rather than extended", () => {
    const stream = new MarkdownStream();
    read(stream, "<thinking>x</thinking>\nHello\n");
    const rewritten = read(stream, "Hello\nworld", true);
    expect(rewritten.reset).toBe(true);
    expect(rewritten.lines.map((line) => line.kind)).toEqual(["paragraph", "paragraph"]);
  });

  it("reads a long answer in one pass: each update parses only what was appended", () => {
    const stream = new MarkdownStream();
    let text = "";
    let lines = 0;
    for (let index = 0; index < 2000; index += 1) {
      text += `- item ${index}\n`;
      lines += read(stream, text).lines.length;
    }
    lines += read(stream, text, true).lines.length;
    expect(lines).toBe(2000);
  });
});
