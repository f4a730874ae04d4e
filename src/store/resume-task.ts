import type { TaskLogWriter } from "./log-writer.js";
import { prepareResume, type PreparedResume } from "./resume.js";
import type { TaskStore } from "./task-store.js";
import type { LoadedTask } from "./types.js";

/**
 * Opens a task to continue it: takes its lock, loads it, prepares the resume, and cuts
 * the log back to the prepared state, so what the resume dropped (an unanswered request,
 * old resume asks, a user turn that is sent again) does not come back on the next load.
 */
export async function openForResume(
  store: TaskStore,
  taskId: string,
  options: { now: number; userMessage?: string; workspaceChange?: string; workingDirectory?: string },
): Promise<{ writer: TaskLogWriter; loaded: LoadedTask; resume: PreparedResume }> {
  const { writer, loaded } = await store.open(taskId);
  try {
    const resume = prepareResume(loaded, options);
    writer.cutTo({ apiHistoryLength: resume.apiHistory.length, uiMessageCount: resume.uiMessages.length });
    await writer.flush();
    return { writer, loaded, resume };
  } catch (error) {
    await writer.close();
    throw error;
  }
}
