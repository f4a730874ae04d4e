import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { cleanLine, truncateEnd } from "../terminal-text.js";

function lineColour(line: string): "green" | "red" | "cyan" | "gray" | undefined {
  if (line.startsWith("+++") || line.startsWith("---") || line.startsWith("diff ") || line.startsWith("index ")) {
    return "gray";
  }
  if (line.startsWith("+")) return "green";
  if (line.startsWith("-")) return "red";
  if (line.startsWith("@@")) return "cyan";
  return undefined;
}

/** A unified diff, added lines green and removed lines red, cut to `maxLines`. */
export function DiffView({ diff, width, maxLines }: { diff: string; width: number; maxLines: number }): ReactNode {
  const all = diff.replace(/\n$/, "").split("\n");
  const shown = all.slice(0, maxLines);
  const hidden = all.length - shown.length;
  return (
    <Box flexDirection="column" width={width}>
      {shown.map((line, index) => {
        const colour = lineColour(line);
        return (
          <Text key={index} {...(colour === undefined ? {} : { color: colour })}>
            {truncateEnd(cleanLine(line), width) || " "}
          </Text>
        );
      })}
      {hidden > 0 ? <Text color="gray">{`… ${hidden} more diff lines`}</Text> : null}
    </Box>
  );
}
