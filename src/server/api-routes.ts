/**
 * The JSON API of `cairn serve` (docs/server.md): each route is a method, a
 * path pattern and a handler over the registry. Handlers throw a
 * `RequestError` for what the client can correct.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isAbsolute } from "node:path";
import type { PermissionMode, TaskOptions } from "../sdk/options.js";
import type { AskResponse } from "../task/contracts/messages.js";
import { RequestError, type TaskRegistry } from "./task-registry.js";
import { followEvents } from "./event-stream.js";
import { checkpointRoutes } from "./checkpoint-routes.js";
import { modeOf } from "./task-mode.js";

export interface RouteContext {
  request: IncomingMessage;
  response: ServerResponse;
  params: string[];
  url: URL;
  registry: TaskRegistry;
  /** Reads the request's JSON body (an object), or throws a 400. */
  body: () => Promise<Record<string, unknown>>;
  /** A name for the client, for `answered` events. */
  client: string;
}

/** What a handler returns: a JSON body with its status, or nothing when it wrote the response itself. */
export type RouteResult = { status: number; body: unknown } | { status: number; text: string; type: string } | undefined;

export interface Route {
  method: "GET" | "POST";
  pattern: RegExp;
  handle: (context: RouteContext) => Promise<RouteResult>;
}

const taskPath = (rest = ""): RegExp => new RegExp(`^/api/tasks/([^/]+)${rest}$`);

const permissionModes: ReadonlySet<string> = new Set(["default", "acceptEdits", "plan"]);

export const apiRoutes: Route[] = [
  {
    method: "GET",
    pattern: /^\/api\/tasks$/,
    handle: async ({ registry, url }) => {
      const limit = positiveInteger(url.searchParams.get("limit"), "limit") ?? 200;
      return { status: 200, body: { tasks: await registry.list(limit) } };
    },
  },
  {
    method: "POST",
    pattern: /^\/api\/tasks$/,
    handle: async ({ registry, body, request }) => {
      const input = await body();
      const prompt = requiredText(input, "prompt");
      // The caller's W3C trace context: the task's trace continues it when telemetry is on (#36).
      const traceparent = request.headers["traceparent"];
      const taskId = await registry.start(prompt, { ...taskOptionsOf(input), ...(typeof traceparent === "string" ? { traceparent } : {}) });
      return { status: 201, body: { taskId } };
    },
  },
  {
    method: "GET",
    pattern: taskPath(),
    handle: async ({ registry, params }) => ({ status: 200, body: await registry.detail(await registry.resolve(params[0]!)) }),
  },
  {
    method: "GET",
    pattern: taskPath("/events"),
    handle: async ({ registry, params, request, response, url }) => {
      followEvents({ channel: registry.channel(await registry.resolve(params[0]!)), request, response, url });
      return undefined;
    },
  },
  {
    method: "POST",
    pattern: taskPath("/answer"),
    handle: async ({ registry, params, body, client }) => {
      const taskId = await registry.resolve(params[0]!);
      const input = await body();
      const askId = requiredText(input, "askId");
      const answered = registry.answer(taskId, askId, answerOf(input), client);
      if (!answered) throw new RequestError(409, `ask ${askId} is not waiting for an answer (it was answered already, or the task stopped)`);
      return { status: 200, body: { answered: true } };
    },
  },
  {
    method: "POST",
    pattern: taskPath("/messages"),
    handle: async ({ registry, params, body }) => {
      const taskId = await registry.resolve(params[0]!);
      const text = requiredText(await body(), "text");
      const run = registry.runOf(taskId);
      if (run !== undefined) {
        run.send(text);
        return { status: 202, body: { queued: true } };
      }
      await registry.resume(taskId, text);
      return { status: 202, body: { resumed: true } };
    },
  },
  {
    method: "POST",
    pattern: taskPath("/mode"),
    handle: async ({ registry, params, body, client }) => {
      const taskId = await registry.resolve(params[0]!);
      return { status: 200, body: await registry.setMode(taskId, modeOf((await body())["mode"]), client) };
    },
  },
  {
    method: "POST",
    pattern: taskPath("/model"),
    handle: async ({ registry, params, body, client }) => {
      const taskId = await registry.resolve(params[0]!);
      const model = requiredText(await body(), "model").trim();
      if (/\s/.test(model)) throw new RequestError(400, `model must be a model id (one word, e.g. claude-sonnet-5-5), not "${model}"`);
      return { status: 200, body: await registry.chooseModel(taskId, model, client) };
    },
  },
  {
    method: "GET",
    pattern: taskPath("/prompts"),
    handle: async ({ registry, params }) => {
      const taskId = await registry.resolve(params[0]!);
      const run = registry.runOf(taskId);
      const { promptCommandName, promptCommandDescription, promptUsage } = await import("../mcp/user-references.js");
      const prompts = (run?.mcpPrompts() ?? []).map((prompt) => ({
        command: `/${promptCommandName(prompt.server, prompt.name)}`,
        server: prompt.server,
        name: prompt.name,
        description: promptCommandDescription(prompt),
        usage: promptUsage(prompt),
        arguments: prompt.arguments,
      }));
      return { status: 200, body: { running: run !== undefined, prompts } };
    },
  },
  {
    method: "POST",
    pattern: taskPath("/abort"),
    handle: async ({ registry, params }) => {
      const aborted = await registry.abort(await registry.resolve(params[0]!));
      return { status: 200, body: { aborted } };
    },
  },
  {
    method: "POST",
    pattern: taskPath("/resume"),
    handle: async ({ registry, params, body }) => {
      const input = await body();
      const prompt = optionalText(input, "prompt");
      return { status: 202, body: { taskId: await registry.resume(params[0]!, prompt) } };
    },
  },
  {
    method: "GET",
    pattern: /^\/api\/usage$/,
    handle: async ({ registry, url }) => {
      // The numbers of `cairn usage` (#36), from the same history index.
      const { parseSince, usageReport } = await import("../store/usage-report.js");
      const sinceText = url.searchParams.get("since");
      const since = sinceText === null ? undefined : parseSince(sinceText, Date.now());
      if (sinceText !== null && since === undefined) throw new RequestError(400, `since must be a span (7d, 24h, 30m, 2w) or a date (2026-12-01), not "${sinceText}"`);
      const by = url.searchParams.get("by");
      if (by !== null && by !== "day" && by !== "model" && by !== "project" && by !== "task") throw new RequestError(400, "by must be day, model, project or task");
      return { status: 200, body: usageReport(await registry.store.list(), { ...(since === undefined ? {} : { since }), ...(by === null ? {} : { by }) }) };
    },
  },
  ...checkpointRoutes,
];

export function taskOptionsOf(input: Record<string, unknown>): TaskOptions {
  const cwd = requiredText(input, "cwd");
  // The server's own folder means nothing to a client: the folder is named in full.
  if (!isAbsolute(cwd)) throw new RequestError(400, `cwd must be an absolute path (the folder to work in), not "${cwd}"`);
  const options: TaskOptions = { cwd };
  for (const key of ["provider", "model", "profile"] as const) {
    const value = optionalText(input, key);
    if (value !== undefined) Object.assign(options, { [key]: value });
  }
  const mode = optionalText(input, "permissionMode");
  if (mode !== undefined) {
    if (!permissionModes.has(mode)) throw new RequestError(400, `permissionMode must be default, acceptEdits or plan (bypassPermissions is not offered over HTTP; use rules instead)`);
    options.permissionMode = mode as PermissionMode;
  }
  return options;
}

export function answerOf(input: Record<string, unknown>): AskResponse {
  const response = requiredText(input, "response");
  const text = optionalText(input, "text");
  const always = optionalText(input, "always");
  if (always !== undefined && always !== "user" && always !== "project") throw new RequestError(400, `always must be "user" or "project"`);
  switch (response) {
    case "yes":
      return { response, ...(text === undefined ? {} : { text }), ...(always === undefined ? {} : { always }) };
    case "no":
      return { response, ...(text === undefined ? {} : { text }) };
    case "message":
      return { response, text: requiredText(input, "text") };
    default:
      throw new RequestError(400, `response must be "yes", "no" or "message"`);
  }
}

export function requiredText(input: Record<string, unknown>, key: string): string {
  const value = optionalText(input, key);
  if (value === undefined || value.trim() === "") throw new RequestError(400, `the body needs "${key}" (text)`);
  return value;
}

export function optionalText(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new RequestError(400, `"${key}" must be text`);
  return value;
}

function positiveInteger(value: string | null, name: string): number | undefined {
  if (value === null) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new RequestError(400, `${name} must be a whole number above 0`);
  return number;
}
