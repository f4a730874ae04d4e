/**
 * One task of `cairn serve` as `cairn attach` uses it (docs/server.md): found
 * by its id (or the start of it), answered, sent messages, stopped.
 */
import type { AskResponse } from "../../task/contracts/messages.js";
import type { ServerAddress } from "./server-address.js";
import { ServerError, requestJson } from "./server-requests.js";
import type { RemoteTaskActions } from "./attach-controller.js";
import type { AnswerOutcome } from "./remote-task-feed.js";

/** The fields of a task row `cairn attach` reads. */
export interface RemoteTaskRow {
  taskId: string;
  title: string;
  workspace: string;
  status: string;
  /** The model it runs (or goes on) with, when the server says. */
  model?: string;
}

function rowOf(value: unknown): RemoteTaskRow | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const row = value as Record<string, unknown>;
  if (typeof row["taskId"] !== "string") return undefined;
  return {
    taskId: row["taskId"],
    title: typeof row["title"] === "string" ? row["title"] : "",
    workspace: typeof row["workspace"] === "string" ? row["workspace"] : "",
    status: typeof row["status"] === "string" ? row["status"] : "",
    ...(typeof row["model"] === "string" ? { model: row["model"] } : {}),
  };
}

const taskPath = (taskId: string): string => `/api/tasks/${encodeURIComponent(taskId)}`;

/** The task named `id`, or the only one whose id starts with it; an error says which ones were meant. */
export async function findTask(address: ServerAddress, id: string): Promise<RemoteTaskRow> {
  try {
    const answer = (await requestJson(address, "GET", taskPath(id))) as { task?: unknown } | undefined;
    const row = rowOf(answer?.task);
    if (row !== undefined) return row;
  } catch (error) {
    if (!(error instanceof ServerError && error.status === 404)) throw error;
  }
  const listed = (await requestJson(address, "GET", "/api/tasks?limit=1000")) as { tasks?: unknown[] } | undefined;
  const matches = (listed?.tasks ?? []).flatMap((value) => {
    const row = rowOf(value);
    return row !== undefined && row.taskId.startsWith(id) ? [row] : [];
  });
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new Error(`The server has no task ${id}. Its tasks: \`cairn history\` (or GET ${address.url}/api/tasks).`);
  throw new Error(`${id} starts ${matches.length} tasks' ids (${matches.map((row) => row.taskId).join(", ")}): give more of it.`);
}

/** An answer as `POST /answer` takes it (docs/server.md). */
export function answerBody(askId: string, response: AskResponse): Record<string, unknown> {
  return {
    askId,
    response: response.response,
    ...(response.text === undefined ? {} : { text: response.text }),
    ...(response.response === "yes" && response.always !== undefined ? { always: response.always } : {}),
  };
}

export function remoteTaskActions(address: () => ServerAddress, taskId: string): RemoteTaskActions & { answer(askId: string, response: AskResponse): Promise<AnswerOutcome> } {
  return {
    sendMessage: async (text) => {
      await requestJson(address(), "POST", `${taskPath(taskId)}/messages`, { text });
    },
    abort: async () => {
      await requestJson(address(), "POST", `${taskPath(taskId)}/abort`, {});
    },
    undo: async () => {
      const answer = (await requestJson(address(), "POST", `${taskPath(taskId)}/undo`, {})) as { text?: unknown } | undefined;
      return typeof answer?.text === "string" ? answer.text : "Undone.";
    },
    restore: async (checkpoint, mode) => {
      const answer = (await requestJson(address(), "POST", `${taskPath(taskId)}/restore`, { checkpoint, mode })) as { checkpoint?: { hash?: unknown } } | undefined;
      const hash = typeof answer?.checkpoint?.hash === "string" ? answer.checkpoint.hash.slice(0, 12) : checkpoint;
      return `Restored ${mode === "both" ? "the files and the conversation" : mode === "files" ? "the files" : "the conversation"} to checkpoint ${hash}; the task is stopped: a message goes on from there.`;
    },
    setMode: async (mode) => {
      await requestJson(address(), "POST", `${taskPath(taskId)}/mode`, { mode });
    },
    setModel: async (model) => {
      const answer = (await requestJson(address(), "POST", `${taskPath(taskId)}/model`, { model })) as { text?: unknown } | undefined;
      return typeof answer?.text === "string" ? answer.text : `${model}, from the task's next run`;
    },
    answer: async (askId, response) => {
      try {
        await requestJson(address(), "POST", `${taskPath(taskId)}/answer`, answerBody(askId, response));
        return "accepted";
      } catch (error) {
        if (error instanceof ServerError && error.status === 409) return "answered-already";
        throw error;
      }
    },
  };
}
