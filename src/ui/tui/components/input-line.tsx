import { Box, Text } from "ink";
import type { ReactNode } from "react";

/** One line of the input with the cursor drawn where it is (as an inverse cell). */
function LineWithCursor({ line, cursor }: { line: string; cursor: number | undefined }): ReactNode {
  if (cursor === undefined) return <Text>{line === "" ? " " : line}</Text>;
  const before = line.slice(0, cursor);
  const under = line.slice(cursor, cursor + 1);
  const after = line.slice(cursor + 1);
  return (
    <Text>
      {before}
      <Text inverse>{under === "" ? " " : under}</Text>
      {after}
    </Text>
  );
}

/** The text being typed, with its cursor; several lines when the message has line breaks (the keys are handled by the app). */
export function InputLine({ value, cursor, placeholder, width }: { value: string; cursor?: number; placeholder: string; width: number }): ReactNode {
  const position = cursor ?? value.length;
  const lines = value.split("\n");
  let offset = 0;
  return (
    <Box width={width} borderStyle="round" borderColor="gray" paddingX={1}>
      <Text color="cyan">{"› "}</Text>
      <Box flexShrink={1} flexDirection="column">
        {value === "" ? (
          <Text>
            <Text inverse> </Text>
            <Text color="gray" wrap="truncate-end">
              {placeholder}
            </Text>
          </Text>
        ) : (
          lines.map((line, index) => {
            const start = offset;
            offset += line.length + 1;
            const inLine = position >= start && position <= start + line.length ? position - start : undefined;
            return <LineWithCursor key={index} line={line} cursor={inLine} />;
          })
        )}
      </Box>
    </Box>
  );
}

/** Messages typed while cairn works, waiting for the next tool boundary. */
export function QueuedMessages({ messages, width, withdrawable = true }: { messages: readonly string[]; width: number; withdrawable?: boolean }): ReactNode {
  if (messages.length === 0) return null;
  return (
    <Box flexDirection="column" width={width} paddingX={1}>
      {messages.map((message, index) => (
        <Text key={index} color="yellow" wrap="truncate-end">{`⧗ queued: ${message.replace(/\n/g, " ⏎ ")}`}</Text>
      ))}
      <Text color="gray">{`  sent to the model at its next step${withdrawable ? " · Up takes the last one back to edit" : ""}`}</Text>
    </Box>
  );
}
