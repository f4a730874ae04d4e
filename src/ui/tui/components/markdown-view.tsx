import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { MarkdownLine, Span } from "../markdown.js";

function Spans({ spans }: { spans: readonly Span[] }): ReactNode {
  return spans.map((span, index) => (
    <Text
      key={index}
      bold={span.bold === true}
      italic={span.italic === true}
      underline={span.link === true}
      {...(span.code === true ? { color: "cyan" } : span.link === true ? { color: "blue" } : {})}
    >
      {span.text}
    </Text>
  ));
}

const headingColours = ["magentaBright", "cyan", "white", "white", "white", "white"] as const;

function Line({ line, width }: { line: MarkdownLine; width: number }): ReactNode {
  switch (line.kind) {
    case "blank":
      return <Text> </Text>;
    case "heading":
      return (
        <Text bold underline={line.level === 1} color={headingColours[line.level - 1] ?? "white"}>
          <Spans spans={line.spans} />
        </Text>
      );
    case "list":
      return (
        <Box>
          <Text>{" ".repeat(Math.min(line.indent, 12))}</Text>
          <Text color="gray">{`${line.bullet} `}</Text>
          <Box flexShrink={1}>
            <Text>
              <Spans spans={line.spans} />
            </Text>
          </Box>
        </Box>
      );
    case "quote":
      return (
        <Box>
          <Text color="gray">{"│ "}</Text>
          <Box flexShrink={1}>
            <Text italic dimColor>
              <Spans spans={line.spans} />
            </Text>
          </Box>
        </Box>
      );
    case "rule":
      return <Text color="gray">{"─".repeat(Math.max(4, Math.min(width, 60)))}</Text>;
    case "fence-open":
      return line.language === "" ? <Text color="gray">{"┌"}</Text> : <Text color="gray">{`┌ ${line.language}`}</Text>;
    case "fence-close":
      return <Text color="gray">{"└"}</Text>;
    case "code":
      return (
        <Box>
          <Text color="gray">{"│ "}</Text>
          <Box flexShrink={1}>
            <Text color="yellow">{line.text === "" ? " " : line.text}</Text>
          </Box>
        </Box>
      );
    case "paragraph":
      return (
        <Text>
          <Spans spans={line.spans} />
        </Text>
      );
  }
}

/** Rendered markdown lines, one row (or more when wrapped) per source line. */
export function MarkdownView({ lines, width }: { lines: readonly MarkdownLine[]; width: number }): ReactNode {
  return (
    <Box flexDirection="column" width={width}>
      {lines.map((line, index) => (
        <Line key={index} line={line} width={width} />
      ))}
    </Box>
  );
}
