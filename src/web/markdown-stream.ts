/**
 * A message's text as it streams, cut into complete markdown lines once each:
 * every update reads only what was appended since the last one (the terminal
 * UI's line reader, src/ui/tui/markdown.ts, carries the fence state between
 * lines), so a 1 MiB answer costs the page the same per character at its end
 * as at its start. The unfinished last line is handed back as plain text.
 */
import { initialMarkdownState, parseMarkdownLines, type MarkdownLine, type MarkdownState } from "../ui/tui/markdown.js";

export interface MarkdownUpdate {
  /** The text was rewritten, not extended: throw away what was drawn, then draw `lines`. */
  reset: boolean;
  /** Lines completed since the last update (all of them after a reset). */
  lines: MarkdownLine[];
  /** The unfinished last line, as typed so far ("" when there is none). */
  tail: string;
  /** Whether the tail is inside a code block. */
  tailInCode: boolean;
}

/** How much of the text before the point already read is compared to tell an extension from a rewrite. */
const checkedWindow = 256;

export class MarkdownStream {
  private consumed = 0;
  private state: MarkdownState = initialMarkdownState;
  private previous = "";

  /** The message's whole text so far; `final` when it is the last update (its last line is then complete). */
  update(text: string, final: boolean): MarkdownUpdate {
    const reset = !this.extends(text, final);
    if (reset) {
      this.consumed = 0;
      this.state = initialMarkdownState;
    }
    const end = final ? text.length : text.lastIndexOf("\n") + 1;
    let lines: MarkdownLine[] = [];
    if (end > this.consumed) {
      const source = text.slice(this.consumed, end);
      const parsed = parseMarkdownLines((source.endsWith("\n") ? source.slice(0, -1) : source).split("\n"), this.state);
      lines = parsed.lines;
      this.state = parsed.state;
      this.consumed = end;
    }
    this.previous = text;
    return { reset, lines, tail: text.slice(this.consumed), tailInCode: this.state.fence !== undefined };
  }

  private extends(text: string, final: boolean): boolean {
    if (text.length < this.consumed) return false;
    if (final) return text.startsWith(this.previous.slice(0, this.consumed));
    const from = Math.max(0, this.consumed - checkedWindow);
    return text.slice(from, this.consumed) === this.previous.slice(from, this.consumed);
  }
}
