/** The task log a session writes: a new task's, or a stored task's reopened for resume with what it used so far. */
import type { ResolvedSettings } from "../config/index.js";
import type { UncompactState } from "../context/compaction-log.js";
import { openForResume } from "../store/resume-task.js";
import type { PreparedResume } from "../store/resume.js";
import { TaskStore } from "../store/task-store.js";
import type { UiMessage } from "../task/contracts/messages.js";
import type { TaskLog } from "../task/contracts/seams.js";

export type SessionStart = { kind: "new"; task: string; taskId?: string } | { kind: "resume"; taskId: string; message?: string; workspaceChange?: string };

export interface OpenedSessionLog {
  store: TaskStore;
  log: TaskLog & { close(): Promise<void> };
  taskId: string;
  /** A resumed task's history, spending, messages, active time and compaction state. */
  resumed?: PreparedResume;
  resumedUsage?: { tokensIn: number; tokensOut: number; cost: number };
  usedSoFar?: UiMessage[];
  resumedActiveMs?: number;
  uncompact?: UncompactState;
}

export async function openSessionLog(options: { settings: ResolvedSettings; start: SessionStart; model: string; onNotice?: (text: string) => void }): Promise<OpenedSessionLog> {
  const { settings, start } = options;
  const store = new TaskStore({ dataDir: settings.dataDir });
  // A data folder that cannot be made is named as such (with how to choose another), not as a failed mkdir deep inside it.
  const { ensureDataFolder } = await import("../store/data-folder.js");
  await ensureDataFolder(settings.dataDir);
  if (start.kind === "new") {
    const writer = await store.create({ task: start.task, workspace: settings.cwd, model: options.model, ...(start.taskId ? { taskId: start.taskId } : {}) });
    return { store, log: writer, taskId: writer.taskId };
  }
  const taskId = await store.resolveTaskId(start.taskId);
  const { message, workspaceChange } = start;
  const opened = await openForResume(store, taskId, { now: Date.now(), ...(message ? { userMessage: message } : {}), ...(workspaceChange ? { workspaceChange } : {}) });
  for (const warning of opened.loaded.warnings) options.onNotice?.(warning);
  const { loaded } = opened;
  return {
    store,
    log: opened.writer,
    taskId,
    resumed: opened.resume,
    resumedUsage: { tokensIn: loaded.tokensIn, tokensOut: loaded.tokensOut, cost: loaded.cost },
    usedSoFar: loaded.uiMessages,
    ...(loaded.activeMs === undefined ? {} : { resumedActiveMs: loaded.activeMs }),
    ...(loaded.uncompact === undefined ? {} : { uncompact: loaded.uncompact }),
  };
}
