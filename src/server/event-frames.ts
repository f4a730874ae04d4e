/**
 * The events of `GET /api/tasks/:id/events` as server-sent-event frames
 * (docs/server.md): a log entry a client sees (a final message, a truncation,
 * a status) carries its sequence number as the frame's `id`; everything else
 * (partial updates, answers, the task's state, the result) carries none.
 */
import type { StoreLogEntry } from "../store/types.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { jsonFormatVersion, wholeMessageRecord } from "../ui/headless/json-events.js";

/** The frame of log entry number `seq`, or undefined for an entry clients do not see (the model's conversation). */
export function durableFrame(entry: StoreLogEntry, seq: number, taskId: string): string | undefined {
  const event = durableEvent(entry, seq, taskId);
  return event === undefined ? undefined : frame(event, seq);
}

/** Log entry number `seq` as the event clients see (a final message, a truncation, a status), or undefined for the model's conversation. */
export function durableEvent(entry: StoreLogEntry, seq: number, taskId: string): Record<string, unknown> | undefined {
  switch (entry.kind) {
    case "ui":
      return { v: jsonFormatVersion, ...wholeMessageRecord(entry.message, taskId), seq };
    case "ui_truncate":
      return { v: jsonFormatVersion, type: "truncate", count: entry.count, seq };
    case "status": {
      const { status, tokensIn, tokensOut, cost } = entry;
      return { v: jsonFormatVersion, type: "status", status, tokensIn, tokensOut, cost, seq };
    }
    default:
      return undefined;
  }
}

/**
 * The final state of a message to a client that holds `held` of it: what was appended as a `delta` with `partial:
 * false` (docs/json-events.md's readers fold it), with `meta` only when it changed; whole when the text was rewritten.
 */
export function finalDeltaFrame(message: UiMessage, held: { text: string; meta: unknown }, seq: number, taskId: string): string | undefined {
  // Meta that disappeared cannot be said by leaving it out.
  if (!message.text.startsWith(held.text) || (message.meta === undefined && held.meta !== undefined)) return undefined;
  const { text: _whole, meta, ...rest } = wholeMessageRecord(message, taskId);
  const metaChanged = JSON.stringify(meta) !== JSON.stringify(held.meta);
  return frame({ v: jsonFormatVersion, ...rest, delta: message.text.slice(held.text.length), ...(metaChanged && meta !== undefined ? { meta } : {}), seq }, seq);
}

/** A message still being written, in its whole current state (what a client that joins now starts from). */
export function snapshotFrame(message: UiMessage, taskId: string): string {
  return frame({ v: jsonFormatVersion, ...wholeMessageRecord(message, taskId) });
}

/** An event without a place in the log. */
export function transientFrame(event: object): string {
  return frame(event);
}

/** A comment line: keeps proxies and idle timers from closing a quiet stream. */
export const keepAliveFrame = ": keep-alive\n\n";

function frame(event: object, seq?: number): string {
  // JSON.stringify escapes every line break, so the data is one line.
  return `${seq === undefined ? "" : `id: ${seq}\n`}data: ${JSON.stringify(event)}\n\n`;
}
