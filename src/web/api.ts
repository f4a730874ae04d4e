/**
 * Calls to `cairn serve`'s API (docs/server.md). Paths are relative to the
 * page's server; the token travels as the cookie the server set on `/?token=`.
 */
import type { Checkpoint, PermissionMode, RestoreMode, TaskRow, WireResponse } from "./api-types.js";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/**
 * This page's name for the server (`X-Cairn-Client`): who answered an ask is
 * told to the other clients by it, and this page knows its own answers.
 */
export const clientName = `web ${Math.random().toString(36).slice(2, 8)}`;

async function request(method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json", "x-cairn-client": clientName };
  const init: RequestInit = { method, credentials: "same-origin", headers };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    headers["content-type"] = "application/json";
  }
  const response = await fetch(path, init);
  if (!response.ok) {
    let message = `${method} ${path}: ${response.status} ${response.statusText}`;
    try {
      const parsed = (await response.json()) as { error?: unknown };
      if (typeof parsed.error === "string") message = parsed.error;
    } catch {
      // not JSON: the status says it
    }
    throw new ApiError(response.status, message);
  }
  return response;
}

const json = async <T>(method: string, path: string, body?: unknown): Promise<T> => (await request(method, path, body)).json() as Promise<T>;
const task = (id: string, rest = ""): string => `/api/tasks/${encodeURIComponent(id)}${rest}`;

export const api = {
  tasks: (limit = 100) => json<{ tasks: TaskRow[] }>("GET", `/api/tasks?limit=${limit}`),
  task: (id: string) => json<{ task: TaskRow; messages: Array<Record<string, unknown>>; seq: number }>("GET", task(id)),
  start: (body: { prompt: string; cwd: string; permissionMode?: PermissionMode }) => json<{ taskId: string }>("POST", "/api/tasks", body),
  answer: (id: string, body: { askId: string; response: WireResponse; text?: string; always?: "user" | "project" }) => request("POST", task(id, "/answer"), body),
  send: (id: string, text: string) => request("POST", task(id, "/messages"), { text }),
  setMode: (id: string, mode: "plan" | "act") => request("POST", task(id, "/mode"), { mode }),
  abort: (id: string) => request("POST", task(id, "/abort"), {}),
  resume: (id: string, prompt?: string) => request("POST", task(id, "/resume"), prompt === undefined ? {} : { prompt }),
  checkpoints: (id: string) => json<{ checkpoints: Checkpoint[] }>("GET", task(id, "/checkpoints")),
  diff: async (id: string, from?: string, to?: string): Promise<string> => {
    const query = new URLSearchParams();
    if (from !== undefined) query.set("from", from);
    if (to !== undefined) query.set("to", to);
    const suffix = query.size > 0 ? `?${query.toString()}` : "";
    return (await request("GET", task(id, `/diff${suffix}`))).text();
  },
  restore: (id: string, checkpoint: string, mode: RestoreMode) => request("POST", task(id, "/restore"), { checkpoint, mode }),
  /** The fleet's queue, or undefined when the server has no fleet (404). */
  fleet: async (): Promise<Record<string, unknown> | undefined> => {
    try {
      return await json<Record<string, unknown>>("GET", "/api/fleet");
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  },
  usage: (since: string, by: string) => json<Record<string, unknown>>("GET", `/api/usage?since=${encodeURIComponent(since)}&by=${encodeURIComponent(by)}`),
  eventsUrl: (id: string, after: number) => task(id, `/events?after=${after}`),
};
