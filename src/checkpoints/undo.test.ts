import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CheckpointTracker } from "./tracker.js";
import { readText, useCheckpointFolders, writeFiles } from "./test-support/workspace.js";
import { undoLastStep } from "./undo.js";
import type { UndoPoint } from "./undo.js";

const folders = useCheckpointFolders();

/** A task's checkpoints as the Task takes them: the start, then after each step that changed files. */
async function task(steps: Array<Record<string, string>>): Promise<CheckpointTracker> {
  const tracker = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir });
  await tracker.init();
  await writeFiles(folders.workspace, { "a.txt": "start\n" });
  await tracker.commit({ taskId: "t1", reason: "initial" });
  for (const files of steps) {
    await writeFiles(folders.workspace, files);
    await tracker.commit({ taskId: "t1", reason: "turn" }, { onlyIfChanged: true });
  }
  return tracker;
}

async function undo(tracker: CheckpointTracker, undone: UndoPoint[] = []): Promise<UndoPoint | undefined> {
  const outcome = await undoLastStep({
    tracker,
    taskId: "t1",
    undone,
    restoreFiles: (hash) => tracker.restoreFiles(hash, { taskId: "t1" }).then((files) => ({ checkpoint: { hash, taskId: "t1", reason: "turn", createdAt: 0 }, files })),
  });
  if (outcome.kind !== "undone") return undefined;
  undone.push(outcome.point);
  return outcome.point;
}

const a = () => readText(join(folders.workspace, "a.txt"));

describe("/undo", () => {
  it("a step stopped before its checkpoint is taken back to the last checkpoint, not one further", async () => {
    const tracker = await task([{ "a.txt": "step one\n" }]);
    await writeFiles(folders.workspace, { "a.txt": "half of step two\n" });
    await undo(tracker);
    expect(await a()).toBe("step one\n");
  });

  it("undone steps are no longer the workspace's past: after an undo and a new step, /undo goes back to before that new step", async () => {
    const tracker = await task([{ "a.txt": "one\n" }, { "a.txt": "two\n" }]);
    const undone: UndoPoint[] = [];
    await undo(tracker, undone);
    expect(await a()).toBe("one\n");
    // The task went on from "one" and checkpointed a new step.
    await writeFiles(folders.workspace, { "a.txt": "three\n" });
    await tracker.commit({ taskId: "t1", reason: "turn" }, { onlyIfChanged: true });
    await undo(tracker, undone);
    expect(await a()).toBe("one\n");
    await undo(tracker, undone);
    expect(await a()).toBe("start\n");
    expect(await undo(tracker, undone)).toBeUndefined();
  });

  it("only the task's own checkpoints are undo targets: another task's are never gone back to", async () => {
    const tracker = await task([]);
    await writeFiles(folders.workspace, { "a.txt": "other task\n" });
    await tracker.commit({ taskId: "t2", reason: "turn" });
    const undone: UndoPoint[] = [];
    expect(await undo(tracker, undone)).toBeDefined();
    expect(await a()).toBe("start\n");
    expect(await undo(tracker, undone)).toBeUndefined();
  });
});
