import { statSync } from "node:fs";

/**
 * Why the task cannot go on in `workspace`, or undefined when it can. A folder deleted
 * (or moved) while a task runs must not be recreated by the next write: the task stops
 * and says how to continue once the folder is back.
 */
export function workspaceProblem(workspace: string, taskId: string): string | undefined {
  let isFolder: boolean;
  try {
    isFolder = statSync(workspace, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return undefined; // unreadable is not gone: the tools will say what they cannot do
  }
  if (isFolder) return undefined;
  return `the workspace folder ${workspace} no longer exists; put it back (or restore it from a copy), then continue the task with: cairn resume ${taskId}`;
}
