import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { UiMessage } from "../../../task/contracts/messages.js";
import { readCommandOutputMeta } from "../meta.js";
import { cleanLine, lastLines, truncateEnd } from "../terminal-text.js";

/** The last lines of a command's output, with its exit status once it ended. */
export function CommandOutputView({
  message,
  width,
  maxLines,
}: {
  message: UiMessage;
  width: number;
  maxLines: number;
}): ReactNode {
  const { lines, hidden } = lastLines(message.text, maxLines);
  const meta = readCommandOutputMeta(message.meta);
  let ending: ReactNode = null;
  if (meta.stopped !== undefined) {
    ending = <Text color="red">{`  ${meta.stopped}`}</Text>;
  } else if (meta.signal !== undefined) {
    ending = <Text color="red">{`  killed by ${meta.signal}`}</Text>;
  } else if (meta.exitCode !== undefined) {
    ending = <Text color={meta.exitCode === 0 ? "green" : "red"}>{`  exit ${meta.exitCode}`}</Text>;
  } else if (message.partial) {
    ending = <Text color="gray">{"  running…"}</Text>;
  }
  return (
    <Box flexDirection="column" width={width}>
      {hidden > 0 ? <Text color="gray">{`  … ${hidden} earlier lines`}</Text> : null}
      {lines.map((line, index) => (
        <Text key={index}>
          <Text color="gray">{"  │ "}</Text>
          {truncateEnd(cleanLine(line), width - 4) || " "}
        </Text>
      ))}
      {ending}
    </Box>
  );
}
