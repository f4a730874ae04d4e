/**
 * `cairn mcp serve`'s tools (docs/mcp.md, "cairn as an MCP server"): another agent starts tasks in folders,
 * follows them, answers their asks and takes their results with the patch of what they changed. Every tool
 * works on the same `TaskRegistry` as `cairn serve`: the same runs, logs, asks (first answer wins) and checks.
 */
import { stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { answerOf, taskOptionsOf } from "./api-routes.js";
import { followTask, taskOutcome } from "./task-follow.js";
import { RequestError, type TaskRegistry } from "./task-registry.js";

/** Longest a call may wait for a task: under the 60 s most MCP clients give a call. */
const maxWaitSeconds = 50;

const taskId = z.string().min(1).describe("The task's id (from start_task or list_tasks), or a unique prefix of it");
const waitSeconds = z.number().min(0).max(maxWaitSeconds).optional();

export const taskToolNames = ["start_task", "list_tasks", "follow_task", "get_result", "answer_ask", "send_message", "set_mode", "abort_task", "resume_task"] as const;

/** An MCP server (one per connection) whose tools drive the registry's tasks. */
export function createTaskMcpServer(registry: TaskRegistry, version: string): McpServer {
  const server = new McpServer(
    { name: "cairn", version },
    {
      instructions:
        "cairn is a coding agent. start_task runs a task in a folder; follow_task (with waitSeconds) or get_result (with waitSeconds) shows how it goes; a task that asks something waits until answer_ask answers it; get_result gives its final text and the patch of what it changed.",
    },
  );
  const by = (): string => `mcp ${server.server.getClientVersion()?.name ?? "client"}`;

  server.registerTool(
    "start_task",
    {
      title: "Start a cairn task",
      description:
        "Starts a coding task in a folder (as `cairn run` would there: the folder's settings, permission rules, sandbox and budgets). Returns its taskId at once; follow it with follow_task or wait for it with get_result.",
      inputSchema: {
        folder: z.string().describe("Absolute path of the folder to work in (it must exist)"),
        task: z.string().min(1).describe("What to do, as you would tell a developer"),
        model: z.string().optional().describe("The model to use (default: the server's, or the folder's settings)"),
        permissionMode: z.string().optional().describe("default (ask before edits and commands), acceptEdits (edits without asking) or plan (read and plan only)"),
      },
    },
    (input) =>
      answer(async () => {
        await checkFolder(input.folder);
        if (input.permissionMode === "bypassPermissions")
          throw new RequestError(400, "permissionMode bypassPermissions is not offered to MCP clients (as `cairn serve` refuses it); allow what the task needs with permission rules instead");
        const options = taskOptionsOf({ cwd: input.folder, model: input.model, permissionMode: input.permissionMode });
        return { taskId: await registry.start(input.task, options) };
      }),
  );

  server.registerTool(
    "list_tasks",
    {
      title: "List cairn tasks",
      description: "The tasks, running and past, newest first: id, title, folder, status, whether it runs and which ask waits, cost and tokens.",
      inputSchema: { limit: z.number().int().min(1).max(500).optional().describe("How many (default 20)") },
    },
    (input) => answer(async () => ({ tasks: await registry.list(input.limit ?? 20) })),
  );

  server.registerTool(
    "follow_task",
    {
      title: "Follow a cairn task",
      description:
        "The task's events after sequence number `after` (0: from its start): its messages, tool calls, asks and status changes, each with its `seq`, plus the asks waiting for an answer. Give `next` as `after` in the following call. With waitSeconds, a call that finds nothing new waits up to that long for the next event (a long poll).",
      inputSchema: {
        taskId,
        after: z.number().int().min(0).optional().describe("The last seq you have seen (default 0)"),
        waitSeconds: waitSeconds.describe(`Wait up to this long for a new event when there is none (0 to ${maxWaitSeconds}; default 0)`),
      },
    },
    (input) => answer(async () => followTask(registry, await registry.resolve(input.taskId), input.after ?? 0, (input.waitSeconds ?? 0) * 1000)),
  );

  server.registerTool(
    "get_result",
    {
      title: "Get a cairn task's result",
      description:
        "The task's status (running, completed, failed, budget, aborted), its final text, cost and tokens, the asks waiting for an answer, and its patch: the unified diff of what it changed in its folder. With waitSeconds, waits up to that long for a running task to end or ask something.",
      inputSchema: {
        taskId,
        waitSeconds: waitSeconds.describe(`Wait up to this long for the task to end or ask (0 to ${maxWaitSeconds}; default 0)`),
      },
    },
    (input) => answer(async () => taskOutcome(registry, await registry.resolve(input.taskId), (input.waitSeconds ?? 0) * 1000)),
  );

  server.registerTool(
    "answer_ask",
    {
      title: "Answer a cairn task's ask",
      description:
        "Answers an ask a task waits on (an approval of an edit or command, or a question), by its askId from follow_task or get_result. The first answer wins: an ask answered already (by you or another client) is an error.",
      inputSchema: {
        taskId,
        askId: z.string().min(1).describe("The ask's id (pendingAsks[].askId)"),
        response: z.enum(["yes", "no", "message"]).describe("yes: approve; no: refuse; message: answer a question (or refuse an action) with `text`"),
        text: z.string().optional().describe("The answer to a question, or what to do instead; needed with response message"),
      },
    },
    (input) =>
      answer(async () => {
        const id = await registry.resolve(input.taskId);
        if (!registry.answer(id, input.askId, answerOf({ response: input.response, text: input.text }), by()))
          throw new RequestError(409, `ask ${input.askId} is not waiting for an answer (it was answered already, or the task stopped)`);
        return { answered: true };
      }),
  );

  server.registerTool(
    "send_message",
    {
      title: "Send a message to a cairn task",
      description: "A message for the task's model: a running task reads it at its next step; a stopped task is resumed with it.",
      inputSchema: { taskId, text: z.string().min(1).describe("The message") },
    },
    (input) =>
      answer(async () => {
        const id = await registry.resolve(input.taskId);
        const run = registry.runOf(id);
        if (run !== undefined) {
          run.send(input.text);
          return { queued: true };
        }
        await registry.resume(id, input.text);
        return { resumed: true };
      }),
  );

  server.registerTool(
    "set_mode",
    {
      title: "Switch a cairn task between plan and act",
      description:
        "Switches a running task's mode for its next request: plan (read-only tools; the model explores and proposes a plan) or act (it changes files and runs commands, as the permission rules allow). Every client sees the switch, and a resumed task keeps it. A task that does not run is an error: resume it first.",
      inputSchema: { taskId, mode: z.enum(["plan", "act"]).describe("plan or act") },
    },
    (input) => answer(async () => registry.setMode(await registry.resolve(input.taskId), input.mode, by())),
  );

  server.registerTool(
    "abort_task",
    {
      title: "Stop a cairn task",
      description: "Stops a running task (it can be resumed with resume_task). Returns aborted: false when it was not running.",
      inputSchema: { taskId },
    },
    (input) => answer(async () => ({ aborted: await registry.abort(await registry.resolve(input.taskId)) })),
  );

  server.registerTool(
    "resume_task",
    {
      title: "Resume a cairn task",
      description: "Continues a stopped or interrupted task where it stopped, or with a new instruction.",
      inputSchema: { taskId, prompt: z.string().optional().describe("What to do next (default: go on where it stopped)") },
    },
    (input) => answer(async () => ({ taskId: await registry.resume(input.taskId, input.prompt) })),
  );
  return server;
}

/** A tool's value as JSON text (and structured content); a mistake the caller can correct as a tool error saying what to do. */
async function answer(action: () => Promise<object>): Promise<CallToolResult> {
  try {
    const value = await action();
    return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value as Record<string, unknown> };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { content: [{ type: "text", text: error instanceof RequestError ? message : `cairn failed: ${message}` }], isError: true };
  }
}

async function checkFolder(folder: string): Promise<void> {
  if (!isAbsolute(folder)) throw new RequestError(400, `folder must be an absolute path (the folder to work in), not "${folder}"`);
  const found = await stat(folder).catch(() => undefined);
  if (found === undefined) throw new RequestError(400, `the folder ${folder} does not exist; create it first or give another`);
  if (!found.isDirectory()) throw new RequestError(400, `${folder} is a file, not a folder`);
}
