/** The machine-readable description of the API (OpenAPI 3.1), served at `GET /api/openapi.json`; docs/server.md says the same in prose. */

const json = (schema: object): object => ({ content: { "application/json": { schema } } });
const ok = (description: string, schema: object = { type: "object" }): object => ({ description, ...json(schema) });
const error = { $ref: "#/components/responses/Error" };
const taskId = { name: "id", in: "path", required: true, description: "a task id or a prefix only one task has", schema: { type: "string" } };
const body = (properties: Record<string, object>, required: string[]): object => ({ required: true, ...json({ type: "object", properties, required }) });
const text = { type: "string" };

export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "cairn serve",
    version: "1",
    description: "Tasks of a coding agent over HTTP: start, follow (server-sent events numbered by the task log), answer, steer, restore. Every request needs the server's token (bearer header or cookie).",
  },
  components: {
    securitySchemes: { bearer: { type: "http", scheme: "bearer" }, cookie: { type: "apiKey", in: "cookie", name: "cairn_token" } },
    responses: { Error: ok("what went wrong and what to do", { type: "object", properties: { error: text }, required: ["error"] }) },
    schemas: {
      TaskRow: {
        type: "object",
        properties: {
          taskId: text,
          title: text,
          workspace: text,
          status: { enum: ["running", "completed", "failed", "aborted", "budget"] },
          running: { type: "boolean" },
          openAsk: { type: ["string", "null"] },
          mode: { enum: ["plan", "act", null], description: "a running task's mode; the one a stopped task resumes in (GET /api/tasks/{id}); null in the list for a task that does not run" },
          cost: { type: "number" },
          tokensIn: { type: "integer" },
          tokensOut: { type: "integer" },
          createdAt: { type: "integer" },
          updatedAt: { type: "integer" },
        },
      },
    },
  },
  security: [{ bearer: [] }, { cookie: [] }],
  paths: {
    "/api/tasks": {
      get: {
        summary: "the tasks, newest first",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", minimum: 1 } }],
        responses: { 200: ok("the list", { type: "object", properties: { tasks: { type: "array", items: { $ref: "#/components/schemas/TaskRow" } } } }), 400: error },
      },
      post: {
        summary: "start a task",
        requestBody: body({ prompt: text, cwd: text, provider: text, model: text, profile: text, permissionMode: { enum: ["default", "acceptEdits", "plan"] } }, ["prompt", "cwd"]),
        responses: { 201: ok("started", { type: "object", properties: { taskId: text } }), 400: error, 409: error },
      },
    },
    "/api/usage": {
      get: {
        summary: "what the tasks used (as `cairn usage --json`): totals and groups of tokens, cache, cost, requests, tool calls and active time",
        parameters: [
          { name: "since", in: "query", description: "7d, 24h, 2w, or a date", schema: text },
          { name: "by", in: "query", schema: { enum: ["day", "model", "project", "task"] } },
        ],
        responses: { 200: ok("the report"), 400: error },
      },
    },
    "/api/tasks/{id}": { get: { summary: "a task: its row, its messages and the number of the last log entry they include", parameters: [taskId], responses: { 200: ok("the task"), 404: error } } },
    "/api/tasks/{id}/events": {
      get: {
        summary: "the task's events as server-sent events; durable ones carry their log number as id",
        parameters: [taskId, { name: "after", in: "query", schema: { type: "integer", minimum: 0 } }, { name: "Last-Event-ID", in: "header", schema: { type: "integer", minimum: 0 } }],
        responses: { 200: { description: "an event stream", content: { "text/event-stream": { schema: text } } }, 404: error },
      },
    },
    "/api/tasks/{id}/answer": {
      post: {
        summary: "answer the open ask; the first answer wins",
        parameters: [taskId],
        requestBody: body({ askId: text, response: { enum: ["yes", "no", "message"] }, text, always: { enum: ["user", "project"] } }, ["askId", "response"]),
        responses: { 200: ok("answered"), 400: error, 404: error, 409: error },
      },
    },
    "/api/tasks/{id}/messages": {
      post: {
        summary: "a message for the model (a stopped task is resumed with it)",
        parameters: [taskId],
        requestBody: body({ text }, ["text"]),
        responses: { 202: ok("queued or resumed"), 400: error, 404: error, 409: error },
      },
    },
    "/api/tasks/{id}/mode": {
      post: {
        summary:
          "switch a running task between plan (read-only tools, it plans) and act; its next request uses the mode, every client gets an info message and a state event, and the log keeps it (a resumed task keeps the mode)",
        parameters: [taskId],
        requestBody: body({ mode: { enum: ["plan", "act"] } }, ["mode"]),
        responses: {
          200: ok("the mode now (changed: false when it was that already)", { type: "object", properties: { mode: { enum: ["plan", "act"] }, changed: { type: "boolean" } } }),
          400: error,
          404: error,
          409: error,
        },
      },
    },
    "/api/tasks/{id}/model": {
      post: {
        summary: "the model the task goes on with from its next run (as the terminal's /model: a running step keeps its model); a running task's clients get an info message with meta {model, by}, and its log keeps it",
        parameters: [taskId],
        requestBody: body({ model: text }, ["model"]),
        responses: { 200: ok("what was chosen, in words", { type: "object", properties: { model: text, text } }), 400: error, 404: error, 409: error },
      },
    },
    "/api/tasks/{id}/prompts": {
      get: {
        summary: "the prompts of the running task's MCP servers, each a command to send as a message (`/mcp__server__prompt args`; the server expands it); none when the task does not run",
        parameters: [taskId],
        responses: {
          200: ok("the prompts", {
            type: "object",
            properties: {
              running: { type: "boolean" },
              prompts: { type: "array", items: { type: "object", properties: { command: text, server: text, name: text, description: text, usage: text, arguments: { type: "array" } } } },
            },
          }),
          404: error,
        },
      },
    },
    "/api/tasks/{id}/abort": { post: { summary: "stop the task (resumable)", parameters: [taskId], responses: { 200: ok("stopped", { type: "object", properties: { aborted: { type: "boolean" } } }), 404: error } } },
    "/api/tasks/{id}/resume": { post: { summary: "resume a stopped or interrupted task", parameters: [taskId], requestBody: body({ prompt: text }, []), responses: { 202: ok("resumed"), 404: error, 409: error } } },
    "/api/tasks/{id}/checkpoints": { get: { summary: "the task's checkpoints, newest first", parameters: [taskId], responses: { 200: ok("the checkpoints"), 404: error } } },
    "/api/tasks/{id}/diff": {
      get: {
        summary: "a unified diff between two checkpoints (default: the first one to the workspace now)",
        parameters: [taskId, { name: "from", in: "query", schema: text }, { name: "to", in: "query", schema: text }],
        responses: { 200: { description: "the diff", content: { "text/plain": { schema: text } } }, 404: error },
      },
    },
    "/api/tasks/{id}/restore": {
      post: {
        summary: "restore files, conversation or both to a checkpoint (a running task is stopped first)",
        parameters: [taskId],
        requestBody: body({ checkpoint: text, mode: { enum: ["files", "task", "both"] } }, ["checkpoint"]),
        responses: { 200: ok("restored"), 404: error, 409: error },
      },
    },
    "/api/tasks/{id}/undo": {
      post: {
        summary: "take back the files of the task's last step (a running task is stopped first); again: one step further back",
        parameters: [taskId],
        responses: { 200: ok("what was undone (undone: false when nothing was left to undo)", { type: "object", properties: { undone: { type: "boolean" }, text: { type: "string" } } }), 404: error, 409: error },
      },
    },
    "/api/fleet": { get: { summary: "the fleet's queue (with --redis)", responses: { 200: ok("waiting, running and finished jobs"), 404: error } } },
    "/api/openapi.json": { get: { summary: "this description", responses: { 200: ok("OpenAPI 3.1") } } },
  },
} as const;
