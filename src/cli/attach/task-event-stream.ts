/**
 * Follows one task's events in `cairn serve` (`GET /api/tasks/:id/events`,
 * docs/server.md) and never loses one: each durable event's sequence number
 * (its SSE `id`) is kept, and a dropped connection is opened again with
 * `Last-Event-ID` set to the last one, so the server sends exactly what was
 * missed (from the task's log, also after it was killed and started again),
 * then the messages still being written, whole, then the live events.
 */
import type { ClientRequest } from "node:http";
import { SseParser } from "./sse-parser.js";
import type { ServerAddress } from "./server-address.js";
import { ServerError, errorText, openRequest } from "./server-requests.js";

export type TaskEvent = Record<string, unknown> & { type: string };

export type ConnectionChange =
  /** `resumed`: a connection after a lost one (the events missed meanwhile follow). */
  | { kind: "connected"; resumed: boolean; after: number }
  /** The connection dropped or could not be made; it is tried again after `retryInMs`. */
  | { kind: "lost"; reason: string; retryInMs: number };

export interface TaskEventStreamOptions {
  /** Where the server is, asked again at each connection (server.json may name a new token). */
  address: () => ServerAddress;
  taskId: string;
  onEvent: (event: TaskEvent) => void;
  onConnection?: (change: ConnectionChange) => void;
  /** The server refused the stream (no such task, a wrong token): nothing is tried again. */
  onFatal?: (error: Error) => void;
  /** Waits between attempts, the last one repeated (default 250 ms, 500 ms, 1 s, then every 2 s). */
  retryDelaysMs?: readonly number[];
}

const defaultDelays = [250, 500, 1000, 2000];

/** Answers that trying again cannot change. */
function isFatal(status: number): boolean {
  return status === 401 || status === 403 || status === 404 || status === 410;
}

export class TaskEventStream {
  /** The sequence number of the last durable event received (0: none). */
  lastSeq = 0;
  #request: ClientRequest | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #failures = 0;
  #everConnected = false;
  readonly #options: TaskEventStreamOptions;

  constructor(options: TaskEventStreamOptions) {
    this.#options = options;
  }

  /** Opens the stream (from the start of the task's log). */
  start(): this {
    this.#connect();
    return this;
  }

  /** Stops following; no event is delivered after it. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#request?.destroy();
    this.#request = undefined;
  }

  #connect(): void {
    if (this.#closed) return;
    let address: ServerAddress;
    try {
      address = this.#options.address();
    } catch (error) {
      this.#lost(error instanceof Error ? error.message : String(error));
      return;
    }
    const headers: Record<string, string> = { accept: "text/event-stream", "cache-control": "no-cache" };
    if (this.lastSeq > 0) headers["last-event-id"] = String(this.lastSeq);
    let settled = false;
    const lose = (reason: string): void => {
      if (settled) return;
      settled = true;
      this.#request = undefined;
      this.#lost(reason);
    };
    const request = openRequest(address, "GET", `/api/tasks/${encodeURIComponent(this.#options.taskId)}/events`, headers, (response) => {
      const status = response.statusCode ?? 0;
      if (status !== 200) {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => {
          if (isFatal(status)) {
            settled = true;
            this.close();
            this.#options.onFatal?.(new ServerError(status, errorText(status, body)));
            return;
          }
          lose(errorText(status, body));
        });
        return;
      }
      const resumed = this.#everConnected;
      this.#everConnected = true;
      this.#failures = 0;
      this.#options.onConnection?.({ kind: "connected", resumed, after: this.lastSeq });
      const parser = new SseParser();
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        for (const sse of parser.push(chunk)) {
          if (this.#closed) return;
          this.#deliver(sse.data, sse.id);
        }
      });
      response.on("end", () => lose("the server closed the stream"));
      response.on("error", (error) => lose(error.message));
    });
    request.on("error", (error) => lose(error.message));
    request.end();
    this.#request = request;
  }

  #deliver(data: string, id: string | undefined): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof parsed !== "object" || parsed === null || typeof (parsed as { type?: unknown }).type !== "string") return;
    const event = parsed as TaskEvent;
    const seq = id !== undefined && /^\d+$/.test(id) ? Number(id) : undefined;
    if (seq !== undefined) {
      // Already seen (a server that replays a little more than asked): shown once.
      if (seq <= this.lastSeq) return;
      this.lastSeq = seq;
    }
    this.#options.onEvent(event);
  }

  #lost(reason: string): void {
    if (this.#closed) return;
    const delays = this.#options.retryDelaysMs ?? defaultDelays;
    const wait = delays[Math.min(this.#failures, delays.length - 1)] ?? 1000;
    this.#failures += 1;
    this.#options.onConnection?.({ kind: "lost", reason, retryInMs: wait });
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#connect();
    }, wait);
  }
}
