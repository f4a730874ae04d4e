/**
 * Turns markdown lines into finished terminal rows: styled with ANSI colours
 * and wrapped to the width with hanging indents. A batch of lines becomes one
 * string in one Ink <Text>, because Ink's cost grows with the number of nodes
 * and a 1 MB answer is thousands of lines.
 */
import pc from "picocolors";
import type { MarkdownLine, Span } from "./markdown.js";

type Style = (text: string) => string;

interface Piece {
  text: string;
  style: Style;
}

const plain: Style = (text) => text;

function compose(outer: Style, inner: Style): Style {
  return (text) => outer(inner(text));
}

function spanStyle(span: Span, base: Style): Style {
  let style = base;
  if (span.code === true) style = compose(pc.cyan, style);
  if (span.link === true) style = compose(pc.blue, compose(pc.underline, style));
  if (span.bold === true) style = compose(pc.bold, style);
  if (span.italic === true) style = compose(pc.italic, style);
  return style;
}

/** A surrogate pair is one character of two code units; text without one counts its length. */
const surrogate = /[\uD800-\uDFFF]/;

function visibleLength(text: string): number {
  if (!surrogate.test(text)) return text.length;
  let count = 0;
  for (const _character of text) count += 1;
  return count;
}

/** Splits a long word into chunks of at most `size` characters. */
function chunks(word: string, size: number): string[] {
  if (word.length <= size) return [word];
  const characters = Array.from(word);
  const result: string[] = [];
  for (let index = 0; index < characters.length; index += size) result.push(characters.slice(index, index + size).join(""));
  return result;
}

interface Prefix {
  first: string;
  rest: string;
  /** Visible width of both prefixes (they are the same width). */
  width: number;
  style: Style;
}

/** Word-wraps styled pieces into rows, each prefixed (bullet first, indent after). */
function wrap(pieces: readonly Piece[], prefix: Prefix, width: number): string[] {
  const available = Math.max(8, width - prefix.width);
  const rows: Piece[][] = [[]];
  let used = 0;
  const newRow = (): void => {
    const row = rows[rows.length - 1]!;
    while (row.length > 0 && row[row.length - 1]!.text.trim() === "") row.pop();
    rows.push([]);
    used = 0;
  };
  const add = (text: string, style: Style): void => {
    rows[rows.length - 1]!.push({ text, style });
    used += visibleLength(text);
  };
  for (const piece of pieces) {
    for (const token of piece.text.split(/(\s+)/)) {
      if (token === "") continue;
      const length = visibleLength(token);
      if (token.trim() === "") {
        if (used > 0 && used + length <= available) add(token, piece.style);
        else if (used > 0) newRow();
        continue;
      }
      if (used + length <= available) {
        add(token, piece.style);
      } else if (length <= available) {
        newRow();
        add(token, piece.style);
      } else {
        for (const chunk of chunks(token, available)) {
          if (used + visibleLength(chunk) > available) newRow();
          add(chunk, piece.style);
        }
      }
    }
  }
  return rows.map((row, index) => {
    const lead = prefix.style(index === 0 ? prefix.first : prefix.rest);
    return lead + row.map((part) => (part.text === "" ? "" : part.style(part.text))).join("");
  });
}

function spansToPieces(spans: readonly Span[], base: Style): Piece[] {
  return spans.map((span) => ({ text: span.text, style: spanStyle(span, base) }));
}

const headingStyles: Style[] = [(text) => pc.bold(pc.underline(pc.magentaBright(text))), (text) => pc.bold(pc.cyan(text)), pc.bold];

function noPrefix(): Prefix {
  return { first: "", rest: "", width: 0, style: plain };
}

function formatLine(line: MarkdownLine, width: number): string[] {
  switch (line.kind) {
    case "blank":
      // a space, so a batch that is only a blank line still takes its row
      return [" "];
    case "heading":
      return wrap(spansToPieces(line.spans, headingStyles[line.level - 1] ?? pc.bold), noPrefix(), width);
    case "list": {
      const indent = " ".repeat(Math.min(line.indent, 12));
      const first = `${indent}${line.bullet} `;
      return wrap(spansToPieces(line.spans, plain), { first, rest: " ".repeat(first.length), width: first.length, style: pc.gray }, width);
    }
    case "quote":
      return wrap(spansToPieces(line.spans, compose(pc.italic, pc.dim)), { first: "│ ", rest: "│ ", width: 2, style: pc.gray }, width);
    case "rule":
      return [pc.gray("─".repeat(Math.max(4, Math.min(width, 60))))];
    case "fence-open":
      return [pc.gray(line.language === "" ? "┌" : `┌ ${line.language}`)];
    case "fence-close":
      return [pc.gray("└")];
    case "code": {
      const available = Math.max(8, width - 2);
      const text = line.text === "" ? [""] : chunks(line.text, available);
      return text.map((row) => pc.gray("│ ") + pc.yellow(row));
    }
    case "paragraph":
      return wrap(spansToPieces(line.spans, plain), noPrefix(), width);
  }
}

/** Rows ready for the terminal, joined by newlines; no row is wider than `width`. */
export function formatMarkdown(lines: readonly MarkdownLine[], width: number): string {
  const rows: string[] = [];
  for (const line of lines) rows.push(...formatLine(line, width));
  return rows.join("\n");
}
