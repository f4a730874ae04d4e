/**
 * The `--json` event format (version 2, docs/json-events.md, schema in
 * docs/json-events.schema.json): one JSON object per line, each with `"v": 2`.
 *
 * A message's text is sent about once however often it is updated: the first
 * line of a message (a snapshot) carries its whole `text`; a later partial
 * update carries only `delta`, the text appended since the last line; a final
 * line carries the whole `text` again. When the new text does not extend what
 * was sent (a thinking tag stripped, a secret redacted), the line carries the
 * whole `text`, which replaces what the reader has. Version 1 re-sent the whole
 * text on every update, so output grew with the square of the answer (#18).
 */
import { appendedText } from "../../task/contracts/message-growth.js";
import type { UiMessage } from "../../task/contracts/messages.js";
import { escapeControlsInJson } from "../terminal-controls.js";

export const jsonFormatVersion = 2;

/** What a whole message's line is made of: a UI message, or one read back from the lines. */
type WholeMessage = Pick<UiMessage, "type" | "text" | "partial" | "ts" | "id" | "subagentId" | "meta"> & { say?: string; ask?: string };

/** The fields of a whole message's line (without `v`): what a snapshot or final line carries. */
export function wholeMessageRecord(message: WholeMessage, taskId: string): Record<string, unknown> {
  const kind = message.type === "say" ? { say: message.say } : { ask: message.ask };
  return {
    type: message.type,
    ...kind,
    text: message.text,
    partial: message.partial,
    ts: message.ts,
    id: message.id,
    taskId,
    ...(message.subagentId === undefined ? {} : { subagentId: message.subagentId }),
    ...(message.meta === undefined ? {} : { meta: message.meta }),
  };
}

/** What was last sent of an open (partial) message. */
interface SentState {
  text: string;
  /** `JSON.stringify(meta)` as last sent; undefined when the message had none. */
  meta: string | undefined;
}

/**
 * Turns the UiMessages of one task into `--json` lines. Keeps the text last
 * sent of each message still partial (a reference to the string, not a copy),
 * and forgets it when the message's final line is written.
 */
export class JsonEventWriter {
  readonly #taskId: string;
  readonly #minDeltaChars: number;
  readonly #open = new Map<string, SentState>();

  /**
   * `minDeltaChars`: a partial update that appends less than this (and changes
   * no meta) is held back unless `force` is set, so that the ~80 bytes of a
   * delta line do not outweigh the text a slow stream adds (the caller flushes
   * held updates on a timer).
   */
  constructor(options: { taskId: string; minDeltaChars?: number }) {
    this.#taskId = options.taskId;
    this.#minDeltaChars = options.minDeltaChars ?? 0;
  }

  /** The line for this message (without its newline), or undefined when a partial update changes nothing or is held back. */
  line(message: UiMessage, force = false): string | undefined {
    const record = this.record(message, force);
    return record === undefined ? undefined : escapeControlsInJson(JSON.stringify(record));
  }

  /** The same as `line`, as the object (the SDK's events): a whole message's record, or a delta's. */
  record(message: UiMessage, force = false): Record<string, unknown> | undefined {
    const sent = this.#open.get(message.id);
    if (!message.partial) {
      this.#open.delete(message.id);
      return this.#full(message);
    }
    const meta = message.meta === undefined ? undefined : JSON.stringify(message.meta);
    const delta = sent === undefined ? undefined : appendedText(message.text, sent.text);
    // Meta that disappeared cannot be said by leaving it out: a whole line says it.
    if (sent === undefined || delta === undefined || (meta === undefined && sent.meta !== undefined)) {
      this.#open.set(message.id, { text: message.text, meta });
      return this.#full(message);
    }
    const metaChanged = meta !== sent.meta;
    if (!metaChanged && (delta === "" || (!force && delta.length < this.#minDeltaChars))) return undefined;
    sent.text = message.text;
    sent.meta = meta;
    const kind = message.type === "say" ? { say: message.say } : { ask: message.ask };
    // A delta line carries what identifies the message and what changed; ts and taskId are the snapshot's.
    return {
      v: jsonFormatVersion,
      type: message.type,
      ...kind,
      delta,
      partial: true,
      id: message.id,
      ...(message.subagentId === undefined ? {} : { subagentId: message.subagentId }),
      ...(metaChanged && message.meta !== undefined ? { meta: message.meta } : {}),
    };
  }

  #full(message: UiMessage): Record<string, unknown> {
    return { v: jsonFormatVersion, ...wholeMessageRecord(message, this.#taskId) };
  }
}
