import { neutralizeControls } from "../terminal-controls.js";

const tabWidth = 4;

/**
 * Makes text from the model or a command safe to lay out: escape sequences
 * would move the cursor under Ink, a carriage return overwrites the line (keep
 * what a terminal would show), and a tab's width is unknown to the layout.
 */
export function cleanLine(line: string): string {
  let text = neutralizeControls(line, { carriageReturns: "keep" });
  const carriageReturn = text.lastIndexOf("\r", text.length - 2);
  if (carriageReturn !== -1) text = text.slice(carriageReturn + 1);
  text = text.replace(/\r$/, "");
  return text.includes("\t") ? expandTabs(text) : text;
}

function expandTabs(text: string): string {
  let result = "";
  for (const character of text) {
    if (character === "\t") {
      result += " ".repeat(tabWidth - (result.length % tabWidth));
    } else {
      result += character;
    }
  }
  return result;
}

/** The last `count` lines of `text` without splitting all of it (outputs can be large). */
export function lastLines(text: string, count: number): { lines: string[]; hidden: number } {
  const trimmed = text.endsWith("\n") ? text.slice(0, -1) : text;
  if (trimmed === "") return { lines: [], hidden: 0 };
  let cut = 0;
  let position = trimmed.length;
  for (let found = 0; found < count; found += 1) {
    const index = position > 0 ? trimmed.lastIndexOf("\n", position - 1) : -1;
    if (index === -1) {
      cut = 0;
      break;
    }
    cut = index + 1;
    position = index;
  }
  const lines = trimmed.slice(cut).split("\n");
  const total = countLines(trimmed);
  return { lines: lines.slice(-count), hidden: Math.max(0, total - count) };
}

/** Number of lines in text (a trailing newline does not start a new one). */
export function countLines(text: string): number {
  if (text === "") return 0;
  let count = 1;
  let index = text.indexOf("\n");
  while (index !== -1) {
    if (index !== text.length - 1) count += 1;
    index = text.indexOf("\n", index + 1);
  }
  return count;
}

/** Keeps the end of a very long line so the live area stays a few rows high. */
export function tailOfLine(line: string, maxCharacters: number): string {
  return line.length <= maxCharacters ? line : `…${line.slice(line.length - maxCharacters + 1)}`;
}

export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

export function formatCost(dollars: number): string {
  return `$${dollars < 1 ? dollars.toFixed(4) : dollars.toFixed(2)}`;
}

/** Cuts a line to `width` columns with an ellipsis (code points; wide characters are rare in code). */
export function truncateEnd(line: string, width: number): string {
  const characters = Array.from(line);
  if (characters.length <= width) return line;
  return `${characters.slice(0, Math.max(0, width - 1)).join("")}…`;
}
