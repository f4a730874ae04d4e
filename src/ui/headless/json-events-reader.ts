/**
 * Reads `cairn run --json` (and `cairn queue watch --json`) output back into
 * messages: a line with `text` replaces the message's text, a line with
 * `delta` appends to it (docs/json-events.md). Lines without `v` (format 1,
 * whole text on every line) read the same way.
 */

/** One message as the lines so far describe it. */
export interface JsonMessage {
  type: "say" | "ask";
  /** The kind: `say` for says, `ask` for asks. */
  say?: string;
  ask?: string;
  id: string;
  ts: number;
  taskId: string;
  text: string;
  partial: boolean;
  subagentId?: string;
  meta?: Record<string, unknown>;
}

export class JsonEventFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JsonEventFormatError";
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export class JsonEventReader {
  /** Every message seen, in the order of its first line. */
  readonly messages = new Map<string, JsonMessage>();
  /** Lines that are not messages (`result`, `job`), in order. */
  readonly others: Array<Record<string, unknown>> = [];

  /**
   * Folds one line (the text of a line, or the object parsed from it) and
   * returns the message it changed, or undefined for a line that is not a message.
   */
  push(line: string | Record<string, unknown>): JsonMessage | undefined {
    const event: unknown = typeof line === "string" ? JSON.parse(line) : line;
    if (!isRecord(event)) throw new JsonEventFormatError(`a --json line must be an object: ${JSON.stringify(event).slice(0, 80)}`);
    if ((event["type"] !== "say" && event["type"] !== "ask") || typeof event["id"] !== "string") {
      this.others.push(event);
      return undefined;
    }
    const id = event["id"];
    const known = this.messages.get(id);
    const partial = event["partial"] === true;
    const meta = isRecord(event["meta"]) ? event["meta"] : undefined;
    if (typeof event["delta"] === "string") {
      // cairn starts every message with a snapshot line, also for a reader that joins late.
      if (known === undefined) throw new JsonEventFormatError(`a delta for message ${id} came before its first line`);
      known.text += event["delta"];
      known.partial = partial;
      if (meta !== undefined) known.meta = meta;
      return known;
    }
    const message: JsonMessage = {
      type: event["type"],
      id,
      ts: typeof event["ts"] === "number" ? event["ts"] : (known?.ts ?? 0),
      taskId: typeof event["taskId"] === "string" ? event["taskId"] : (known?.taskId ?? ""),
      text: typeof event["text"] === "string" ? event["text"] : "",
      partial,
    };
    if (typeof event["say"] === "string") message.say = event["say"];
    if (typeof event["ask"] === "string") message.ask = event["ask"];
    if (typeof event["subagentId"] === "string") message.subagentId = event["subagentId"];
    if (meta !== undefined) message.meta = meta;
    this.messages.set(id, message);
    return message;
  }
}

/** Every message of a whole `--json` output (lines that are not JSON objects, such as a torn last line, are skipped). */
export function readJsonEvents(output: string): { messages: JsonMessage[]; others: Array<Record<string, unknown>> } {
  const reader = new JsonEventReader();
  for (const line of output.split("\n")) {
    if (!line.startsWith("{")) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (isRecord(parsed)) reader.push(parsed);
  }
  return { messages: [...reader.messages.values()], others: reader.others };
}
