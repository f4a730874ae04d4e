import { TaskStore } from "../store/task-store.js";
import type { TaskLogWriter } from "../store/log-writer.js";
import type { ConversationPosition, LoadedTask } from "../store/types.js";
import { conversationCutFor } from "./conversation-cut.js";
import { CheckpointTracker, type Checkpoint, type RestoreResult } from "./tracker.js";

export type RestoreMode = "files" | "task" | "both";

export interface RestoreOutcome {
  checkpoint: Checkpoint;
  /** Present when files were restored. */
  files?: RestoreResult;
  /** Present when the conversation was cut back. */
  conversation?: ConversationPosition;
}

/** Finds one of a task's checkpoints by its hash or a prefix of it. */
export async function findTaskCheckpoint(tracker: CheckpointTracker, taskId: string, reference: string): Promise<Checkpoint> {
  const checkpoints = await tracker.list({ taskId });
  const matches = checkpoints.filter((checkpoint) => checkpoint.hash.startsWith(reference.toLowerCase()));
  if (matches.length === 1 && matches[0] !== undefined) return matches[0];
  if (matches.length > 1) throw new Error(`"${reference}" matches ${matches.length} checkpoints of task ${taskId}; give more of the hash`);
  throw new Error(`task ${taskId} has no checkpoint "${reference}"; run \`cairn checkpoints ${taskId}\` to see them`);
}

/**
 * Restores a task to one of its checkpoints: the workspace files, the conversation, or
 * both. The task's lock is taken first, so nothing is restored under a running task.
 * The conversation is cut back by appending truncate entries to the log (it stays
 * append-only; nothing written is destroyed), and the files are checkpointed just
 * before they are restored, so a restore can itself be undone.
 */
export async function restoreCheckpoint(options: { dataDir: string; taskId: string; checkpoint: string; mode: RestoreMode }): Promise<RestoreOutcome> {
  const store = new TaskStore({ dataDir: options.dataDir });
  const { writer, loaded } = await store.open(options.taskId);
  try {
    return await restoreOpenTask({ writer, loaded, dataDir: options.dataDir, checkpoint: options.checkpoint, mode: options.mode });
  } finally {
    await writer.close();
  }
}

/**
 * The same for a task this process already holds open (the terminal UI between turns):
 * `writer` and `loaded` are the task's writer and its state as loaded now. The caller
 * rebuilds its conversation from the outcome (or reloads the task).
 */
export async function restoreOpenTask(options: { writer: TaskLogWriter; loaded: LoadedTask; dataDir: string; checkpoint: string; mode: RestoreMode }): Promise<RestoreOutcome> {
  const { writer, loaded } = options;
  const tracker = new CheckpointTracker({ workspace: loaded.meta.workspace, dataDir: options.dataDir });
  await tracker.init();
  const checkpoint = await findTaskCheckpoint(tracker, loaded.meta.taskId, options.checkpoint);
  // Work out the cut first: if it cannot be done, nothing is touched.
  const cut = options.mode === "files" ? undefined : conversationCutFor(loaded, checkpoint);
  const outcome: RestoreOutcome = { checkpoint };
  if (options.mode !== "task") outcome.files = await tracker.restoreFiles(checkpoint.hash, { taskId: loaded.meta.taskId });
  if (cut !== undefined) {
    writer.appendEntry({ kind: "api_truncate", length: cut.apiHistoryLength });
    writer.appendEntry({ kind: "ui_truncate", count: cut.uiMessageCount });
    await writer.flush();
    outcome.conversation = cut;
  }
  return outcome;
}
