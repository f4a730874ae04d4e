/**
 * `/undo` (the terminal UI, an attached terminal, the server's API): takes back the last step's changes to the
 * workspace. The task's checkpoints are taken after each step that changed
 * files, so the newest one holds the files as they are now: undo goes back to
 * the newest checkpoint whose files differ from the workspace (a step that was
 * stopped before its checkpoint is taken back to the one before it). A second
 * /undo goes one step further back, until the files are as the task found them.
 */
import type { Checkpoint, CheckpointTracker } from "./tracker.js";
import type { RestoreOutcome } from "./restore.js";

/** What one /undo did, so later ones know which steps were taken back. */
export interface UndoPoint {
  taskId: string;
  /** The checkpoint the files were put back to. */
  restoredTo: string;
  /** The checkpoint of the files just before the undo (the restore takes it). */
  undoHash: string;
}

export type UndoOutcome = { kind: "undone"; outcome: RestoreOutcome; point: UndoPoint } | { kind: "nothing"; text: string };

/**
 * The checkpoints /undo may go back to, newest first. Steps an earlier /undo took
 * back are no longer the workspace's past: after an undo to checkpoint R, the
 * workspace went on from R, so the steps between R and that undo are skipped.
 */
function candidates(checkpoints: readonly Checkpoint[], undone: readonly UndoPoint[]): Checkpoint[] {
  const position = new Map(checkpoints.map((checkpoint, index) => [checkpoint.hash, index]));
  const skipped = new Set<number>();
  for (const point of undone) {
    const from = position.get(point.undoHash);
    const to = position.get(point.restoredTo);
    if (from === undefined || to === undefined) continue;
    for (let index = from + 1; index < to; index += 1) skipped.add(index);
  }
  return checkpoints.filter((checkpoint, index) => checkpoint.reason !== "before-restore" && !skipped.has(index));
}

export async function undoLastStep(options: {
  tracker: CheckpointTracker;
  taskId: string;
  /** What earlier /undo calls of this session did (any task's; only this task's count). */
  undone: readonly UndoPoint[];
  /** Restores the files of a checkpoint (under the task's lock). */
  restoreFiles: (hash: string) => Promise<RestoreOutcome>;
}): Promise<UndoOutcome> {
  const checkpoints = await options.tracker.list({ taskId: options.taskId });
  if (checkpoints.length === 0) return { kind: "nothing", text: "This task has no checkpoint yet: there is nothing to undo." };
  for (const checkpoint of candidates(
    checkpoints,
    options.undone.filter((point) => point.taskId === options.taskId),
  )) {
    const changes = await options.tracker.diff(checkpoint.hash);
    if (changes.files.length === 0) continue;
    const outcome = await options.restoreFiles(checkpoint.hash);
    return { kind: "undone", outcome, point: { taskId: options.taskId, restoredTo: checkpoint.hash, undoHash: outcome.files?.undoHash ?? checkpoint.hash } };
  }
  return { kind: "nothing", text: "Nothing to undo: the files are as they were before this task changed them." };
}

/** What the model is told when the task continues after /undo or /restore: the files that changed under it. */
export function workspaceChangeNote(outcome: RestoreOutcome, what: string): string | undefined {
  const files = outcome.files;
  if (files === undefined || files.restored.length + files.removed.length === 0) return undefined;
  const parts = [files.restored.length > 0 ? `wrote back ${files.restored.join(", ")}` : "", files.removed.length > 0 ? `removed ${files.removed.join(", ")}` : ""].filter((part) => part !== "");
  return `${what} (the files as at checkpoint ${outcome.checkpoint.hash.slice(0, 12)}): ${parts.join("; ")}.`;
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
