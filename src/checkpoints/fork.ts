/**
 * Fork (`/fork`, `cairn fork TASK [--at N] [--worktree [PATH]]`): a new task
 * with a task's conversation, whole or up to just before the user's message N,
 * and the workspace as it was there. Both tasks are kept; the fork's meta names
 * its source (`forkedFrom`), which `cairn show` and `cairn history` draw as a
 * family tree. With `--worktree` the fork works in a new git worktree of the
 * workspace's repository holding the files of that point (the source's
 * workspace is untouched); without it, a fork at an earlier message restores
 * those files in the workspace itself (checkpointed first, so nothing is lost).
 */
import { userGit } from "../security/user-git.js";
import { existsSync } from "node:fs";
import { mkdir, unlink } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import type { Message } from "../llm/types.js";
import { userMessageNumbered, type UserMessagePoint } from "../store/conversation-points.js";
import { createTaskId } from "../store/task-id.js";
import { TaskStore } from "../store/task-store.js";
import type { TaskMeta } from "../store/types.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { runGit } from "./git.js";
import { checkpointForPoint, conversationBeforeMessage } from "./rewind.js";
import { CheckpointTracker } from "./tracker.js";

export interface ForkOptions {
  dataDir: string;
  taskId: string;
  /** The user's message to fork before (1: the task itself); none: the whole conversation. */
  at?: number;
  /** A git worktree for the fork: true for one in the data folder, or its path. */
  worktree?: boolean | string;
}

export interface ForkOutcome {
  taskId: string;
  source: string;
  workspace: string;
  at?: UserMessagePoint;
  /** The worktree the fork works in, and its branch. */
  worktree?: { path: string; branch: string };
  /** The checkpoint whose files the fork starts from (a fork at an earlier message). */
  checkpoint?: string;
}

/** Runs git on the user's repository (never its hooks); rejects with git's own words. */
async function gitIn(folder: string, args: string[]): Promise<string> {
  const result = await userGit(folder, args);
  if (result.exitCode !== 0) throw new Error(result.stderr.trim() || result.stdout.trim());
  return result.stdout.trim();
}

/** The git repository's top folder holding `folder`, or an error that says a worktree needs one. */
async function repositoryRoot(folder: string): Promise<string> {
  const root = await gitIn(folder, ["rev-parse", "--show-toplevel"]).catch(() => "");
  if (root === "") throw new Error(`--worktree needs the workspace (${folder}) to be in a git repository; fork without --worktree to share the folder`);
  return root;
}

/** Makes `path` a new worktree of the repository at `root` on a new branch, at its HEAD. */
async function addWorktree(root: string, path: string, branch: string): Promise<void> {
  if (existsSync(path)) throw new Error(`${path} already exists; give --worktree another path`);
  await mkdir(dirname(path), { recursive: true });
  await gitIn(root, ["worktree", "add", "-q", "-b", branch, path, "HEAD"]).catch((error: Error) => {
    throw new Error(`git worktree add failed: ${error.message}`);
  });
}

/** Writes the files of checkpoint `hash` into `folder` (a fresh worktree's copy of the workspace) and removes the files it lacks. */
async function writeCheckpointFiles(tracker: CheckpointTracker, hash: string, folder: string): Promise<void> {
  const call = { gitDir: tracker.gitDir, workTree: folder };
  const listed = await runGit({ ...call, args: ["ls-tree", "-r", "--name-only", "-z", hash] });
  const kept = new Set(listed.stdout.split("\0").filter((path) => path !== ""));
  const present = await gitIn(folder, ["ls-files", "-z"]).catch(() => "");
  for (const path of present.split("\0")) if (path !== "" && !kept.has(path)) await unlink(join(folder, path)).catch(() => undefined);
  // A throwaway index: the shadow repository's own is the live workspace's.
  await runGit({ ...call, args: ["checkout", hash, "--", "."], env: { GIT_INDEX_FILE: join(tracker.gitDir, `fork-index-${process.pid}`) } });
  await unlink(join(tracker.gitDir, `fork-index-${process.pid}`)).catch(() => undefined);
}

/** The conversation the fork starts with: the source's, whole or before `point`. */
async function conversationOf(store: TaskStore, taskId: string, point: UserMessagePoint | undefined, ui: UiMessage[], api: Message[]): Promise<{ ui: UiMessage[]; api: Message[] }> {
  if (point === undefined) return { ui, api };
  return { ui: ui.slice(0, point.number === 1 ? 1 : point.index), api: await conversationBeforeMessage(store.logPath(taskId), point) };
}

/** The folder the fork works in: a new worktree holding the files of `hash` (or of the workspace now), or the workspace itself. */
async function forkWorkspace(options: ForkOptions, taskId: string, workspace: string, tracker: CheckpointTracker, hash: string | undefined): Promise<Pick<ForkOutcome, "workspace" | "worktree">> {
  if (options.worktree === undefined || options.worktree === false) {
    // In the workspace itself: a fork at an earlier message puts that message's files back (checkpointed first).
    if (hash !== undefined) await tracker.restoreFiles(hash, { taskId: options.taskId });
    return { workspace };
  }
  const root = await repositoryRoot(workspace);
  const path = typeof options.worktree === "string" ? options.worktree : join(options.dataDir, "worktrees", taskId);
  const branch = `cairn/fork/${taskId}`;
  await addWorktree(root, path, branch);
  const folder = join(path, relative(root, workspace));
  // Without an earlier message: the workspace as it is now, uncommitted and untracked files included.
  const files = hash ?? (await tracker.commit({ taskId: options.taskId, reason: "fork" }));
  if (files !== undefined) await writeCheckpointFiles(tracker, files, folder);
  return { workspace: folder, worktree: { path, branch } };
}

export async function forkTask(options: ForkOptions): Promise<ForkOutcome> {
  const store = new TaskStore({ dataDir: options.dataDir });
  const source = await store.load(options.taskId);
  const point = options.at === undefined ? undefined : userMessageNumbered(source.uiMessages, options.at, options.taskId);
  const conversation = await conversationOf(store, options.taskId, point, source.uiMessages, source.apiHistory);
  const tracker = new CheckpointTracker({ workspace: source.meta.workspace, dataDir: options.dataDir });
  await tracker.init();
  const checkpoint = point === undefined ? undefined : await checkpointForPoint(tracker, options.taskId, point);

  const taskId = createTaskId();
  const place = await forkWorkspace(options, taskId, source.meta.workspace, tracker, checkpoint?.hash);
  const forkedFrom: NonNullable<TaskMeta["forkedFrom"]> = { taskId: options.taskId, ...(point === undefined ? {} : { at: point.number }) };
  const writer = await store.create({ taskId, task: source.meta.task, workspace: place.workspace, forkedFrom });
  try {
    for (const message of conversation.ui) writer.appendEntry({ kind: "ui", message });
    for (const message of conversation.api) writer.appendEntry({ kind: "api", message });
    // Not running: a fork of a finished task is finished, any other waits to be resumed.
    const status = point === undefined && source.status !== "running" ? source.status : "aborted";
    writer.appendEntry({ kind: "status", status, tokensIn: 0, tokensOut: 0, cost: 0 });
    await writer.flush();
  } finally {
    await writer.close();
  }
  return {
    taskId,
    source: options.taskId,
    ...place,
    ...(point === undefined ? {} : { at: point }),
    ...(checkpoint === undefined ? {} : { checkpoint: checkpoint.hash }),
  };
}
