/**
 * Server-sent events (the `text/event-stream` format of the WHATWG HTML
 * standard, §9.2) read from chunks as they arrive: lines end with CRLF, LF or
 * CR; `data:` lines are joined with newlines; a blank line ends an event; a line
 * starting with `:` is a comment (a keep-alive). `cairn attach` follows a task
 * of `cairn serve` with it (docs/server.md).
 */

export interface SseEvent {
  /** The `event:` field, `message` when there was none. */
  event: string;
  data: string;
  /** The `id:` field, when this event carried one (a durable event's sequence number in cairn's stream). */
  id?: string;
}

export class SseParser {
  #buffer = "";
  /** A CR ended the last chunk: an LF that starts the next one belongs to it. */
  #pendingCr = false;
  #data: string[] = [];
  #event = "";
  #id: string | undefined;
  /** The server's reconnection delay (`retry:`), in milliseconds, when it sent one. */
  retryMs: number | undefined;

  /** Reads a chunk of the stream; returns the events it completed, in order. */
  push(chunk: string): SseEvent[] {
    let text = chunk;
    if (this.#pendingCr && text.startsWith("\n")) text = text.slice(1);
    this.#pendingCr = false;
    this.#buffer += text;
    const events: SseEvent[] = [];
    let start = 0;
    while (start < this.#buffer.length) {
      const lf = this.#buffer.indexOf("\n", start);
      const cr = this.#buffer.indexOf("\r", start);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) break;
      const line = this.#buffer.slice(start, end);
      if (this.#buffer[end] === "\r") {
        if (end + 1 === this.#buffer.length) this.#pendingCr = true;
        start = this.#buffer[end + 1] === "\n" ? end + 2 : end + 1;
      } else {
        start = end + 1;
      }
      const event = this.#line(line);
      if (event !== undefined) events.push(event);
    }
    this.#buffer = this.#buffer.slice(start);
    return events;
  }

  #line(line: string): SseEvent | undefined {
    if (line === "") return this.#dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "data":
        this.#data.push(value);
        break;
      case "event":
        this.#event = value;
        break;
      case "id":
        if (!value.includes("\u0000")) this.#id = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        break;
    }
    return undefined;
  }

  #dispatch(): SseEvent | undefined {
    const data = this.#data;
    const id = this.#id;
    const event = this.#event === "" ? "message" : this.#event;
    this.#data = [];
    this.#event = "";
    this.#id = undefined;
    if (data.length === 0) return undefined;
    return { event, data: data.join("\n"), ...(id === undefined ? {} : { id }) };
  }
}
