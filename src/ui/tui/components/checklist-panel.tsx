import { Box, Text } from "ink";
import type { ReactNode } from "react";
import { parseChecklist } from "../../../context/checklist.js";
import type { UiMessage } from "../../../task/contracts/messages.js";

/** Most lines the pinned panel takes; the rest of the list is counted, not shown. */
const maxLines = 8;

/**
 * The task checklist pinned above the prompt: the list the model last set (a
 * `checklist` message), open items first visible, done ones ticked.
 */
export function ChecklistPanel({ message, width }: { message: UiMessage | undefined; width: number }): ReactNode {
  if (message === undefined) return null;
  const items = parseChecklist(message.text);
  if (items.length === 0) return null;
  const done = items.filter((item) => item.done).length;
  // Show from the first open item on, so the current step is always visible.
  const firstOpen = Math.max(
    0,
    items.findIndex((item) => !item.done),
  );
  const start = Math.max(0, Math.min(firstOpen - 1, items.length - maxLines));
  const shown = items.slice(start, start + maxLines);
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold color="cyan">{`Checklist ${done}/${items.length}`}</Text>
      {start > 0 ? <Text dimColor>{`… ${start} done above`}</Text> : null}
      {shown.map((item, index) => (
        <Text key={index} wrap="truncate-end" {...(item.done ? { dimColor: true } : {})}>
          {item.done ? "✓ " : "○ "}
          {item.text}
        </Text>
      ))}
      {start + maxLines < items.length ? <Text dimColor>{`… ${items.length - start - maxLines} more`}</Text> : null}
    </Box>
  );
}
