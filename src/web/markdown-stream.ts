/**
 * A message's text as it streams, cut into complete markdown lines once each:
 * every update takes only what was appended since the last one, and the lines
 * are parsed when they are taken (the terminal UI's line reader,
 * src/ui/tui/markdown.ts, carries the fence state between lines), so a page
 * can take a few at a time and a 1 MiB answer costs the same per character at
 * its end as at its start. The unfinished last line is kept as plain text.
 */
import { initialMarkdownState, parseMarkdownLines, type MarkdownLine, type MarkdownState } from "../ui/tui/markdown.js";

/** How much of the text before the point already read is compared to tell an extension from a rewrite. */
const checkedWindow = 256;

export class MarkdownStream {
  private consumed = 0;
  private state: MarkdownState = initialMarkdownState;
  private previous = "";
  /** Complete source lines not taken yet, from `next` on. */
  private raw: string[] = [];
  private next = 0;
  private tailText = "";

  /**
   * The message's whole text so far; `final` when it is the last update (its
   * last line is then complete). Says whether the text was rewritten rather
   * than extended: then everything taken so far is void, and is taken again.
   */
  update(text: string, final: boolean): { reset: boolean } {
    const reset = !this.extends(text, final);
    if (reset) {
      this.consumed = 0;
      this.state = initialMarkdownState;
      this.raw = [];
      this.next = 0;
    }
    const end = final ? text.length : text.lastIndexOf("\n") + 1;
    if (end > this.consumed) {
      const source = text.slice(this.consumed, end);
      const lines = (source.endsWith("\n") ? source.slice(0, -1) : source).split("\n");
      this.raw = this.next === this.raw.length ? lines : this.raw.slice(this.next).concat(lines);
      this.next = 0;
      this.consumed = end;
    }
    this.previous = text;
    this.tailText = text.slice(this.consumed);
    return { reset };
  }

  /** Complete lines not taken yet. */
  get pending(): number {
    return this.raw.length - this.next;
  }

  /** Parses and hands out up to `count` complete lines, in order. */
  take(count: number): MarkdownLine[] {
    const lines = this.raw.slice(this.next, this.next + count);
    this.next += lines.length;
    const parsed = parseMarkdownLines(lines, this.state);
    this.state = parsed.state;
    return parsed.lines;
  }

  /** The unfinished last line as typed so far, and whether it is inside a code block (once every complete line is taken). */
  get tail(): { text: string; inCode: boolean } {
    return { text: this.tailText, inCode: this.state.fence !== undefined };
  }

  private extends(text: string, final: boolean): boolean {
    if (text.length < this.consumed) return false;
    if (final) return text.startsWith(this.previous.slice(0, this.consumed));
    const from = Math.max(0, this.consumed - checkedWindow);
    return text.slice(from, this.consumed) === this.previous.slice(from, this.consumed);
  }
}
