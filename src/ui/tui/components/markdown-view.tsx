import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { MarkdownLine } from "../markdown.js";
import { formatMarkdown } from "../markdown-format.js";

/** The last `count` rows of formatted text. */
function lastRows(text: string, count: number): string {
  let cut = text.length;
  for (let found = 0; found < count; found += 1) {
    cut = text.lastIndexOf("\n", cut - 1);
    if (cut === -1) return text;
  }
  return text.slice(cut + 1);
}

/**
 * Rendered markdown lines as one pre-wrapped, pre-styled text (cheap for Ink to lay out).
 * `maxRows`: only the last rows show (the live area must stay shorter than the screen, or Ink
 * clears the whole terminal, scrollback included, at each frame).
 */
export function MarkdownView({ lines, width, maxRows }: { lines: readonly MarkdownLine[]; width: number; maxRows?: number }): ReactNode {
  if (lines.length === 0) return null;
  const text = formatMarkdown(lines, width);
  return (
    <Box width={width}>
      <Text>{maxRows === undefined ? text : lastRows(text, maxRows)}</Text>
    </Box>
  );
}
