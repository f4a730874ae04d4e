import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { MarkdownLine } from "../markdown.js";
import { formatMarkdown } from "../markdown-format.js";

/** Rendered markdown lines as one pre-wrapped, pre-styled text (cheap for Ink to lay out). */
export function MarkdownView({ lines, width }: { lines: readonly MarkdownLine[]; width: number }): ReactNode {
  if (lines.length === 0) return null;
  return (
    <Box width={width}>
      <Text>{formatMarkdown(lines, width)}</Text>
    </Box>
  );
}
