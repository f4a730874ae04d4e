/**
 * `/undo` in the terminal UI: takes back the last step's changes to the
 * workspace. The task's checkpoints are taken after each step that changed
 * files, so the newest one holds the files as they are now: undo goes back to
 * the newest checkpoint whose files differ from the workspace (a step that was
 * stopped before its checkpoint is taken back to the one before it). A second
 * /undo goes one step further back, until the files are as the task found them.
 */
import type { Checkpoint, CheckpointTracker } from "../checkpoints/tracker.js";
import type { RestoreOutcome } from "../checkpoints/restore.js";

/** Where the last /undo left the workspace, so the next one goes further back. */
export interface UndoPoint {
  taskId: string;
  /** The checkpoint the files were put back to. */
  restoredTo: string;
  /** The checkpoint taken just before (the newest of the task while nothing ran since). */
  undoHash: string;
}

export type UndoOutcome =
  | { kind: "undone"; outcome: RestoreOutcome; point: UndoPoint }
  | { kind: "nothing"; text: string };

/** The checkpoints /undo may go back to, newest first: after the last undo's target when nothing ran since. */
function candidates(checkpoints: readonly Checkpoint[], last: UndoPoint | undefined): Checkpoint[] {
  const steps = checkpoints.filter((checkpoint) => checkpoint.reason !== "before-restore");
  // Still where the last /undo left things (no step checkpointed since): continue from there.
  if (last !== undefined && checkpoints[0]?.hash === last.undoHash) {
    const position = steps.findIndex((checkpoint) => checkpoint.hash === last.restoredTo);
    if (position !== -1) return steps.slice(position + 1);
  }
  return steps;
}

export async function undoLastStep(options: {
  tracker: CheckpointTracker;
  taskId: string;
  last: UndoPoint | undefined;
  /** Restores the files of a checkpoint (under the task's lock). */
  restoreFiles: (hash: string) => Promise<RestoreOutcome>;
}): Promise<UndoOutcome> {
  const checkpoints = await options.tracker.list({ taskId: options.taskId });
  if (checkpoints.length === 0) return { kind: "nothing", text: "This task has no checkpoint yet: there is nothing to undo." };
  for (const checkpoint of candidates(checkpoints, options.last?.taskId === options.taskId ? options.last : undefined)) {
    const changes = await options.tracker.diff(checkpoint.hash);
    if (changes.files.length === 0) continue;
    const outcome = await options.restoreFiles(checkpoint.hash);
    return { kind: "undone", outcome, point: { taskId: options.taskId, restoredTo: checkpoint.hash, undoHash: outcome.files?.undoHash ?? checkpoint.hash } };
  }
  return { kind: "nothing", text: "Nothing to undo: the files are as they were before this task changed them." };
}

/** What /undo says: which files it put back, and how to take the undo back. */
export function describeUndo(outcome: RestoreOutcome): string {
  const files = outcome.files;
  const parts: string[] = [];
  if (files !== undefined && files.restored.length > 0) parts.push(`wrote back ${files.restored.join(", ")}`);
  if (files !== undefined && files.removed.length > 0) parts.push(`removed ${files.removed.join(", ")}`);
  if (files !== undefined && files.skippedLarge.length > 0) parts.push(`left ${files.skippedLarge.join(", ")} alone (too large for checkpoints)`);
  const redo = files === undefined ? "" : ` To put these changes back: /restore ${files.undoHash.slice(0, 12)} files.`;
  return `Undid the last step (files as at checkpoint ${outcome.checkpoint.hash.slice(0, 12)}): ${parts.join("; ")}. /undo again goes one step further back.${redo}`;
}
