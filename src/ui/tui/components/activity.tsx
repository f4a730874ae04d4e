import { Text } from "ink";
import type { ReactNode } from "react";
import type { UiMessage } from "../../../task/contracts/messages.js";
import { metaOf } from "../../../task/contracts/message-meta.js";
import { cleanLine } from "../terminal-text.js";
import { useNow } from "./use-clock.js";

const spinnerFrames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Shown from the start of a request until its first token. */
export function WaitingSpinner({ since }: { since: number }): ReactNode {
  const now = useNow(100);
  const elapsed = Math.max(0, Math.floor((now - since) / 1000));
  const frame = spinnerFrames[Math.floor(now / 100) % spinnerFrames.length]!;
  return (
    <Text wrap="truncate-end">
      <Text color="cyan">{frame}</Text>
      {` Waiting for the model… ${elapsed}s `}
      <Text color="gray">(Esc to cancel)</Text>
    </Text>
  );
}

function formatElapsed(seconds: number): string {
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}

/** A command that runs, with or without output: how long it has been running. */
export function CommandTimer({ since, command }: { since: number; command: string }): ReactNode {
  const now = useNow(1000);
  const elapsed = Math.max(0, Math.floor((now - since) / 1000));
  return (
    <Text wrap="truncate-end">
      <Text color="cyan">{"◷"}</Text>
      {` Running ${cleanLine(command.split("\n")[0] ?? "")} · ${formatElapsed(elapsed)} `}
      <Text color="gray">(Esc to stop)</Text>
    </Text>
  );
}

/** The error without the Task's own "Retrying in N s" tail: the countdown says it. */
function retryReason(text: string): string {
  const first = cleanLine(text.split("\n")[0] ?? "");
  return first.replace(/\s*Retrying in \d+ ?s( \(attempt \d+\))?\.?\s*$/, "");
}

/** A provider error that will be retried: counts down to the retry. */
export function RetryCountdown({ message }: { message: UiMessage }): ReactNode {
  const meta = metaOf(message, "error_retry");
  const now = useNow(250);
  const reason = retryReason(message.text);
  if (meta === undefined) return <Text color="yellow" wrap="truncate-end">{`⟳ ${reason}`}</Text>;
  const seconds = Math.ceil((meta.retryAt - now) / 1000);
  const when = seconds > 0 ? `retrying in ${seconds}s` : "retrying now";
  return (
    <Text color="yellow" wrap="truncate-end">
      {`⟳ ${reason} — ${when} (attempt ${meta.attempt})`}
    </Text>
  );
}

/** The same retry once it is in the past: no ticking. */
export function RetryNote({ message }: { message: UiMessage }): ReactNode {
  const meta = metaOf(message, "error_retry");
  const reason = retryReason(message.text);
  const attempt = meta === undefined ? "" : ` (retry ${meta.attempt})`;
  return <Text color="yellow" wrap="truncate-end">{`⟳ ${reason}${attempt}`}</Text>;
}
