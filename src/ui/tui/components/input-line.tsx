import { Box, Text } from "ink";
import type { ReactNode } from "react";

/** The text being typed (the keys are handled by the app). */
export function InputLine({ value, placeholder, width }: { value: string; placeholder: string; width: number }): ReactNode {
  return (
    <Box width={width} borderStyle="round" borderColor="gray" paddingX={1}>
      <Text color="cyan">{"› "}</Text>
      <Box flexShrink={1}>
        {value === "" ? (
          <Text>
            <Text inverse> </Text>
            <Text color="gray" wrap="truncate-end">
              {placeholder}
            </Text>
          </Text>
        ) : (
          <Text>
            {value}
            <Text inverse> </Text>
          </Text>
        )}
      </Box>
    </Box>
  );
}
