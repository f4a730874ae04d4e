/**
 * Rewind (`/rewind`, `cairn rewind TASK --to N`): a task taken back to just
 * before one of the user's messages. The conversation is cut to what it was
 * then (message 1, the task itself, keeps only the task: it starts over), the
 * files are restored to the checkpoint that held them then, or both. The log
 * stays append-only: a rewind is entries added to it, and the files are
 * checkpointed before they are restored, so a rewind can itself be undone.
 */
import type { Message } from "../llm/types.js";
import type { TaskLogWriter } from "../store/log-writer.js";
import { apiHistoryBefore, userMessageNumbered, type UserMessagePoint } from "../store/conversation-points.js";
import { TaskStore } from "../store/task-store.js";
import type { ConversationPosition, LoadedTask } from "../store/types.js";
import { CheckpointTracker, type Checkpoint, type RestoreResult } from "./tracker.js";

export type RewindMode = "conversation" | "files" | "both";

export interface RewindOutcome {
  message: UserMessagePoint;
  /** Present when the conversation was cut back. */
  conversation?: ConversationPosition;
  /** Present when files were restored: the checkpoint they came from, and what changed. */
  files?: RestoreResult & { checkpoint: string };
}

/**
 * The checkpoint holding the files as they were when the message at UI index `index` was sent
 * (`checkpoints` oldest first): the first checkpoint of the run that message started, when it
 * has one and no tool changed anything before it; else the last one made before the message.
 */
export function checkpointAtMessage(checkpoints: readonly Checkpoint[], index: number): Checkpoint | undefined {
  const placed = checkpoints.filter((checkpoint) => checkpoint.reason !== "before-restore" && checkpoint.uiMessageCount !== undefined);
  const next = placed.find((checkpoint) => checkpoint.uiMessageCount! > index);
  if (next?.reason === "initial") return next;
  return placed.filter((checkpoint) => checkpoint.uiMessageCount! <= index).at(-1);
}

/** The files of a task's checkpoint at message `point` (oldest-first list), or an error that says why there is none. */
export async function checkpointForPoint(tracker: CheckpointTracker, taskId: string, point: UserMessagePoint): Promise<Checkpoint> {
  const checkpoints = (await tracker.list({ taskId })).reverse();
  const checkpoint = checkpointAtMessage(checkpoints, point.index);
  if (checkpoint === undefined) {
    throw new Error(`task ${taskId} has no checkpoint from when message ${point.number} was sent (checkpoints were off?); rewind the conversation only (--conversation)`);
  }
  return checkpoint;
}

/** The conversation before message `point`, for a task whose log is at `logPath`. */
export async function conversationBeforeMessage(logPath: string, point: UserMessagePoint): Promise<Message[]> {
  // Message 1 is the task: starting over keeps the task and nothing the model said.
  return point.number === 1 ? [] : apiHistoryBefore(logPath, point.id);
}

/** Whether `prefix` is where `history` starts (the same messages, as written). */
function startsWith(history: readonly Message[], prefix: readonly Message[]): boolean {
  if (prefix.length > history.length) return false;
  return prefix.every((message, index) => JSON.stringify(message) === JSON.stringify(history[index]));
}

/** Rewinds a task this process holds open (`writer`, and `loaded` as read when it was opened). */
export async function rewindOpenTask(options: { writer: TaskLogWriter; loaded: LoadedTask; dataDir: string; logPath: string; to: number; mode: RewindMode }): Promise<RewindOutcome> {
  const { writer, loaded } = options;
  const taskId = loaded.meta.taskId;
  const point = userMessageNumbered(loaded.uiMessages, options.to, taskId);
  // Everything that can fail is worked out before anything is changed.
  const history = options.mode === "files" ? undefined : await conversationBeforeMessage(options.logPath, point);
  let tracker: CheckpointTracker | undefined;
  let checkpoint: Checkpoint | undefined;
  if (options.mode !== "conversation") {
    tracker = new CheckpointTracker({ workspace: loaded.meta.workspace, dataDir: options.dataDir });
    await tracker.init();
    checkpoint = await checkpointForPoint(tracker, taskId, point);
  }
  const outcome: RewindOutcome = { message: point };
  if (tracker !== undefined && checkpoint !== undefined) {
    outcome.files = { ...(await tracker.restoreFiles(checkpoint.hash, { taskId })), checkpoint: checkpoint.hash };
  }
  if (history !== undefined) {
    if (startsWith(loaded.apiHistory, history)) writer.appendEntry({ kind: "api_truncate", length: history.length });
    else {
      // A compaction (or a drop) came after the message: the history then is written again whole.
      writer.appendEntry({ kind: "api_truncate", length: 0 });
      for (const message of history) writer.appendEntry({ kind: "api", message });
    }
    const uiMessageCount = point.number === 1 ? 1 : point.index;
    writer.appendEntry({ kind: "ui_truncate", count: uiMessageCount });
    await writer.flush();
    outcome.conversation = { apiHistoryLength: history.length, uiMessageCount };
  }
  return outcome;
}

/** Rewinds a task that is not running (its lock is taken: a running task is refused). */
export async function rewindTask(options: { dataDir: string; taskId: string; to: number; mode: RewindMode }): Promise<RewindOutcome> {
  const store = new TaskStore({ dataDir: options.dataDir });
  const { writer, loaded } = await store.open(options.taskId);
  try {
    return await rewindOpenTask({ writer, loaded, dataDir: options.dataDir, logPath: store.logPath(options.taskId), to: options.to, mode: options.mode });
  } finally {
    await writer.close();
  }
}
