import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { SlashCommand } from "../slash-commands.js";

/** The completion menu under the input while a command name is typed. */
export function CommandMenu({ commands, selected, width }: { commands: readonly SlashCommand[]; selected: number; width: number }): ReactNode {
  if (commands.length === 0) return null;
  const shown = commands.slice(0, 8);
  return (
    <Box flexDirection="column" width={width} paddingX={2}>
      {shown.map((command, index) => (
        <Text key={command.name} wrap="truncate-end" {...(index === selected ? { color: "cyan" } : { color: "gray" })}>
          {`${index === selected ? "▸" : " "} /${command.name}${command.usage ? ` ${command.usage}` : ""}  ${command.description}`}
        </Text>
      ))}
      {commands.length > shown.length ? <Text color="gray">{`  … ${commands.length - shown.length} more`}</Text> : null}
      <Text color="gray">{"  Tab completes · Enter runs"}</Text>
    </Box>
  );
}
