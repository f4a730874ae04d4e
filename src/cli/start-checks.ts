/** Checks made before a task starts, so a mistake is named before anything runs (issue #12). */
import { stat } from "node:fs/promises";
import type { ResolvedSettings } from "../config/index.js";

/** Why `cairn resume ID` cannot go on, or undefined when it can. Checked before the API key. */
export async function resumeProblem(dataDir: string, reference: string): Promise<string | undefined> {
  const { TaskStore } = await import("../store/task-store.js");
  const store = new TaskStore({ dataDir });
  let taskId: string;
  try {
    taskId = await store.resolveTaskId(reference);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const loaded = await store.load(taskId);
  const folder = loaded.meta.workspace;
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) {
    return `task ${taskId} worked in ${folder}, which no longer exists; its tools would all fail. Restore that folder, or start a new task.`;
  }
  return undefined;
}

/** Why cairn's data folder cannot hold the task (it cannot be created or written), or undefined. */
export async function dataFolderProblem(dataDir: string): Promise<string | undefined> {
  const { ensureDataFolder } = await import("../store/data-folder.js");
  try {
    await ensureDataFolder(dataDir);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** What to set when no API key is found, or undefined when one is (or none is needed). */
export async function missingApiKeyMessage(settings: ResolvedSettings): Promise<string | undefined> {
  const { requireApiKey } = await import("../config/index.js");
  try {
    requireApiKey(settings);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** A task given on the command line must say something. */
export function emptyTaskMessage(task: string): string | undefined {
  return task.trim() === "" ? 'the task is empty. Usage: cairn run [options] "<task>" (or cairn run - to read it from standard input)' : undefined;
}
