import { Box, Text } from "ink";
import type { ReactNode } from "react";
import type { ProcessRow } from "../controller.js";
import { cleanLine } from "../terminal-text.js";

/** Most processes the panel shows; the rest are counted (/ps lists them all). */
const maxRows = 4;

function age(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes}m${String(seconds % 60).padStart(2, "0")}s` : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

/** The background processes that run now (#31), pinned above the prompt: id, age, command and last line. */
export function ProcessPanel({ processes, width, now = Date.now() }: { processes: readonly ProcessRow[]; width: number; now?: number }): ReactNode {
  const running = processes.filter((process) => process.state === "running");
  if (running.length === 0) return null;
  const shown = running.slice(-maxRows);
  return (
    <Box flexDirection="column" width={width} borderStyle="round" borderColor="green" paddingX={1}>
      <Text bold color="green">{`Background ${running.length === 1 ? "process" : "processes"} (/ps, /kill ID)`}</Text>
      {running.length > shown.length ? <Text dimColor>{`… ${running.length - shown.length} more`}</Text> : null}
      {shown.map((process) => (
        <Text key={process.id} wrap="truncate-end">
          <Text color="green">{`⏵ ${process.id}`}</Text>
          {` ${age(now - process.startedAt).padStart(6)}  ${cleanLine(process.command)}`}
          {process.lastLine === "" ? null : <Text dimColor>{`  · ${cleanLine(process.lastLine)}`}</Text>}
        </Text>
      ))}
    </Box>
  );
}
