/** The shapes of `cairn serve`'s API as the web UI reads them (docs/server.md). */

export type TaskStatus = "running" | "completed" | "failed" | "aborted" | "budget" | "interrupted";

/** A task as `GET /api/tasks` lists it. */
export interface TaskRow {
  taskId: string;
  title: string;
  workspace: string;
  /** A `TaskStatus`. */
  status: string;
  running: boolean;
  /** The open ask: its id, or whether there is one. */
  openAsk?: unknown;
  /** Plan or act (a running task's; `GET /api/tasks/:id`: the one a stopped task resumes in). */
  mode?: "plan" | "act" | null;
  cost: number;
  tokensIn: number;
  tokensOut: number;
  createdAt: number | string;
  updatedAt: number | string;
}

export interface Checkpoint {
  hash: string;
  createdAt: number | string;
  reason?: string;
}

/** What an answer to an ask says (`POST /api/tasks/:id/answer`). */
export type WireResponse = "yes" | "no" | "message";

export type RestoreMode = "files" | "task" | "both";

export type PermissionMode = "default" | "acceptEdits" | "plan";
