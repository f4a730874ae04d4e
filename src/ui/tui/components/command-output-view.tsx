import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { UiMessage } from "../../../task/contracts/messages.js";
import { metaOf } from "../../../task/contracts/message-meta.js";
import { commandEndText } from "../../../task/contracts/tool-ending.js";
import { cleanLine, lastLines, truncateEnd } from "../terminal-text.js";

/** The last lines of a command's output, with its exit status once it ended. */
export function CommandOutputView({ message, width, maxLines }: { message: UiMessage; width: number; maxLines: number }): ReactNode {
  const { lines, hidden } = lastLines(message.text, maxLines);
  const end = metaOf(message, "command_output")?.end;
  let ending: ReactNode = null;
  if (end !== undefined && end.kind !== "exited") {
    ending = <Text color="red">{`  ${commandEndText(end)}`}</Text>;
  } else if (end?.signal != null) {
    ending = <Text color="red">{`  killed by ${end.signal}`}</Text>;
  } else if (end?.exitCode != null) {
    ending = <Text color={end.exitCode === 0 ? "green" : "red"}>{`  exit ${end.exitCode}`}</Text>;
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
