/**
 * A test's client of `cairn serve`: JSON requests with the token, and a task's
 * event stream read frame by frame (server-sent events over real HTTP).
 */
import { request as httpRequest, type IncomingMessage } from "node:http";

export interface ServerEvent {
  /** The frame's `id:` (a log entry's number), when it has one. */
  id?: number;
  data: Record<string, unknown>;
}

export interface ApiClient {
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Record<string, unknown>; headers: IncomingMessage["headers"] }>;
  follow(taskId: string, options?: { lastEventId?: number }): EventFollower;
}

export function apiClient(baseUrl: string, token: string, name = "test"): ApiClient {
  return {
    async call(method, path, body, headers = {}) {
      const response = await fetch(new URL(path, baseUrl), {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "x-cairn-client": name, ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: "manual",
      });
      const text = await response.text();
      let parsed: Record<string, unknown>;
      try {
        parsed = text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        parsed = { text };
      }
      return { status: response.status, body: parsed, headers: Object.fromEntries(response.headers.entries()) };
    },
    follow: (taskId, options = {}) => new EventFollower(new URL(`/api/tasks/${taskId}/events`, baseUrl), token, options.lastEventId),
  };
}

/** One open event stream: every event so far, and waits for the one a test needs. */
export class EventFollower {
  readonly events: ServerEvent[] = [];
  readonly #waiters: Array<{ test: (event: ServerEvent) => boolean; resolve: (event: ServerEvent) => void }> = [];
  readonly #request;
  #buffer = "";
  closed = false;

  constructor(url: URL, token: string, lastEventId?: number) {
    this.#request = httpRequest(url, { headers: { authorization: `Bearer ${token}`, ...(lastEventId === undefined ? {} : { "last-event-id": String(lastEventId) }) } }, (response) => {
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => this.#read(chunk));
      response.on("end", () => {
        this.closed = true;
      });
    });
    this.#request.on("error", () => {
      this.closed = true;
    });
    this.#request.end();
  }

  /** The first event (seen or to come) that passes `test`. */
  next(test: (event: ServerEvent) => boolean, timeoutMs = 20_000): Promise<ServerEvent> {
    const seen = this.events.find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no such event within ${timeoutMs} ms; got ${this.events.length}: ${this.events.map((event) => JSON.stringify(event.data).slice(0, 120)).join("\n")}`)), timeoutMs);
      this.#waiters.push({
        test,
        resolve: (event) => {
          clearTimeout(timer);
          resolve(event);
        },
      });
    });
  }

  /** The numbers of the log entries received, in order. */
  ids(): number[] {
    return this.events.flatMap((event) => (event.id === undefined ? [] : [event.id]));
  }

  close(): void {
    this.#request.destroy();
  }

  #read(chunk: string): void {
    this.#buffer += chunk;
    for (let end = this.#buffer.indexOf("\n\n"); end !== -1; end = this.#buffer.indexOf("\n\n")) {
      const frame = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      let id: number | undefined;
      let data: string | undefined;
      for (const line of frame.split("\n")) {
        if (line.startsWith("id: ")) id = Number(line.slice(4));
        else if (line.startsWith("data: ")) data = line.slice(6);
      }
      if (data === undefined) continue;
      const event: ServerEvent = { ...(id === undefined ? {} : { id }), data: JSON.parse(data) as Record<string, unknown> };
      this.events.push(event);
      for (const waiter of [...this.#waiters]) {
        if (!waiter.test(event)) continue;
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  }
}
