/**
 * A small line-based markdown reader for the terminal. It works one source line
 * at a time with only the fence state carried between lines, so a streaming
 * answer can be rendered (and printed for good) line by line as lines complete.
 */
import { cleanLine } from "./terminal-text.js";

export interface MarkdownState {
  /** The open code fence, if any. */
  fence: { marker: string; language: string } | undefined;
}

export const initialMarkdownState: MarkdownState = { fence: undefined };

export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  link?: boolean;
}

export type MarkdownLine =
  | { kind: "heading"; level: number; spans: Span[] }
  | { kind: "list"; indent: number; bullet: string; spans: Span[] }
  | { kind: "quote"; spans: Span[] }
  | { kind: "rule" }
  | { kind: "fence-open"; language: string }
  | { kind: "fence-close" }
  | { kind: "code"; text: string }
  | { kind: "paragraph"; spans: Span[] }
  | { kind: "blank" };

const fencePattern = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const headingPattern = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const listPattern = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const quotePattern = /^ {0,3}>\s?(.*)$/;
const rulePattern = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;

/** What a line does to the fence state: opens a fence, closes the open one, or neither (undefined). */
function fenceChange(line: string, state: MarkdownState): MarkdownState | undefined {
  const fence = fencePattern.exec(line);
  if (fence === null) return undefined;
  if (state.fence === undefined) return { fence: { marker: fence[1]!, language: fence[2] ?? "" } };
  const marker = state.fence.marker;
  const closes = fence[1]!.startsWith(marker[0]!) && fence[1]!.length >= marker.length && line.trim() === fence[1];
  return closes ? { fence: undefined } : undefined;
}

export function parseMarkdownLines(sourceLines: readonly string[], startState: MarkdownState): { lines: MarkdownLine[]; state: MarkdownState } {
  let state = startState;
  const lines: MarkdownLine[] = [];
  for (const rawLine of sourceLines) {
    const line = cleanLine(rawLine);
    const changed = fenceChange(line, state);
    if (changed !== undefined) {
      lines.push(changed.fence === undefined ? { kind: "fence-close" } : { kind: "fence-open", language: changed.fence.language });
      state = changed;
    } else {
      lines.push(state.fence !== undefined ? { kind: "code", text: line } : parseBlockLine(line));
    }
  }
  return { lines, state };
}

/**
 * The state after these lines, as parseMarkdownLines would leave it, found without
 * parsing them (only fences count): the printed history's lines are parsed where
 * they are formatted (markdown-print.ts), the transcript only carries the state on.
 */
export function markdownStateAfter(sourceLines: readonly string[], startState: MarkdownState): MarkdownState {
  let state = startState;
  for (const rawLine of sourceLines) {
    // Only a line with a backtick or a tilde can open or close a fence.
    if (!rawLine.includes("`") && !rawLine.includes("~")) continue;
    state = fenceChange(cleanLine(rawLine), state) ?? state;
  }
  return state;
}

function parseBlockLine(line: string): MarkdownLine {
  if (line.trim() === "") return { kind: "blank" };
  const heading = headingPattern.exec(line);
  if (heading !== null) return { kind: "heading", level: heading[1]!.length, spans: parseInline(heading[2]!) };
  if (rulePattern.test(line)) return { kind: "rule" };
  const list = listPattern.exec(line);
  if (list !== null) {
    const marker = list[2]!;
    const bullet = /^\d/.test(marker) ? marker : "•";
    return { kind: "list", indent: list[1]!.length, bullet, spans: parseInline(list[3]!) };
  }
  const quote = quotePattern.exec(line);
  if (quote !== null) return { kind: "quote", spans: parseInline(quote[1]!) };
  return { kind: "paragraph", spans: parseInline(line.trimStart()) };
}

type Style = Omit<Span, "text">;

/** The characters that may start a span; text between them is copied in one piece. */
const spanStart = /[`*_[]/g;

/** Bold, italic, inline code and links; anything unmatched stays literal. */
export function parseInline(text: string, style: Style = {}): Span[] {
  const spans: Span[] = [];
  let plain = "";
  const flush = (): void => {
    if (plain !== "") spans.push({ text: plain, ...style });
    plain = "";
  };
  let index = 0;
  while (index < text.length) {
    spanStart.lastIndex = index;
    const next = spanStart.exec(text)?.index ?? text.length;
    if (next > index) {
      plain += text.slice(index, next);
      index = next;
      if (index === text.length) break;
    }
    const character = text[index]!;
    if (character === "`") {
      const run = /^`+/.exec(text.slice(index, index + 16))![0];
      const close = text.indexOf(run, index + run.length);
      if (close !== -1) {
        flush();
        spans.push({ text: text.slice(index + run.length, close).trim() || " ", ...style, code: true });
        index = close + run.length;
        continue;
      }
    }
    if ((character === "*" || character === "_") && canOpen(text, index, character)) {
      const double = text[index + 1] === character;
      const marker = double ? character + character : character;
      const close = findClose(text, index + marker.length, marker);
      if (close !== -1) {
        flush();
        const inner = text.slice(index + marker.length, close);
        spans.push(...parseInline(inner, double ? { ...style, bold: true } : { ...style, italic: true }));
        index = close + marker.length;
        continue;
      }
    }
    if (character === "[") {
      const link = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(text.slice(index));
      if (link !== null) {
        flush();
        spans.push({ text: link[1]!, ...style, link: true });
        if (link[2] !== link[1]) spans.push({ text: ` (${link[2]!})`, ...style, italic: true });
        index += link[0].length;
        continue;
      }
    }
    plain += character;
    index += 1;
  }
  flush();
  return spans;
}

function canOpen(text: string, index: number, marker: string): boolean {
  const next = text[index + (text[index + 1] === marker ? 2 : 1)];
  if (next === undefined || next === " ") return false;
  // snake_case words are not emphasis
  if (marker === "_" && index > 0 && /\w/.test(text[index - 1]!)) return false;
  return true;
}

function findClose(text: string, from: number, marker: string): number {
  let index = text.indexOf(marker, from);
  while (index !== -1) {
    const before = text[index - 1];
    const after = text[index + marker.length];
    const isClosing = before !== " " && index > from;
    const singleInsideDouble = marker.length === 1 && after === marker[0];
    const wordAfter = marker[0] === "_" && after !== undefined && /\w/.test(after);
    if (isClosing && !singleInsideDouble && !wordAfter) return index;
    index = text.indexOf(marker, index + (singleInsideDouble ? 2 : 1));
  }
  return -1;
}
