/** What checkpoints are made of and what the tracker answers (src/checkpoints/tracker.ts). */
export type CheckpointReason = "initial" | "turn" | "completion" | "before-restore" | "fork";

/** What a checkpoint records besides the files: who made it and where the conversation stood. */
export interface CheckpointNote {
  taskId: string;
  reason: CheckpointReason;
  apiHistoryLength?: number;
  uiMessageCount?: number;
}

export interface Checkpoint extends CheckpointNote {
  hash: string;
  /** ms since the epoch */
  createdAt: number;
}

export interface ChangedFile {
  path: string;
  status: "added" | "modified" | "deleted";
}

export interface CheckpointDiff {
  files: ChangedFile[];
  /** A unified patch (`git diff` format). */
  patch: string;
}

export interface RestoreResult {
  /** A checkpoint of the workspace as it was just before the restore: restoring it undoes the restore. */
  undoHash: string;
  /** Files written back (they were changed or deleted since the checkpoint). */
  restored: string[];
  /** Files created after the checkpoint, now removed. */
  removed: string[];
  /** Files left alone because they are now larger than the size limit. */
  skippedLarge: string[];
}

export interface SnapshotOptions {
  /** Returns undefined, making no commit, when nothing changed since the last checkpoint. */
  onlyIfChanged?: boolean;
  signal?: AbortSignal;
  /** Only these files (absolute) changed since the last checkpoint (edits by cairn's file tools): no scan of the workspace where the index is large. */
  paths?: readonly string[];
}

export interface CheckpointTrackerOptions {
  workspace: string;
  dataDir: string;
  /** Files larger than this are left out (default 10 MB). */
  maxFileBytes?: number;
  /** Index size above which turn checkpoints use plumbing (default 1 MB). */
  largeIndexBytes?: number;
  /** The user's home folder, where checkpoints are refused (default `os.homedir()`). */
  homeFolder?: string;
}
