import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCheckpointGate } from "./gate.js";
import { CheckpointTracker } from "./tracker.js";
import { useCheckpointFolders, writeFiles } from "./test-support/workspace.js";

const folders = useCheckpointFolders({ prepare: (workspace) => writeFiles(workspace, { "a.txt": "1" }) });

function recordingGate(tracker: CheckpointTracker | undefined, extra: { firstTimeoutMs?: number } = {}) {
  const created: Array<[string, string]> = [];
  const warnings: string[] = [];
  let position = { apiHistoryLength: 0, uiMessageCount: 1 };
  const gate = createCheckpointGate({
    tracker,
    taskId: "task-1",
    ...extra,
    position: () => position,
    onCreated: (hash, reason) => created.push([hash, reason]),
    onWarning: (text) => warnings.push(text),
  });
  return { gate, created, warnings, setPosition: (next: typeof position) => (position = next) };
}

describe("createCheckpointGate", () => {
  it("T16: starts the first checkpoint without blocking, then checkpoints turns and completions that changed files", async () => {
    const tracker = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir });
    const { gate, created, warnings, setPosition } = recordingGate(tracker);
    gate.startInitial();
    // startInitial returned before the snapshot was made.
    expect(created).toEqual([]);
    await gate.waitInitial();
    expect(created.map(([, reason]) => reason)).toEqual(["initial"]);

    // Nothing changed, or nothing a tool said it changed: no checkpoint.
    gate.noteChanges(undefined);
    expect(await gate.commit("turn")).toBeUndefined();
    expect(await gate.commit("turn")).toBeUndefined();
    await writeFiles(folders.workspace, { "a.txt": "2" });
    // A command ran: it may have changed anything.
    gate.noteChanges(undefined);
    setPosition({ apiHistoryLength: 4, uiMessageCount: 9 });
    const turn = await gate.commit("turn");
    expect(turn).toMatch(/^[0-9a-f]{40}$/);
    // Issue 18: no completion checkpoint when nothing changed since the last one.
    gate.noteChanges(undefined);
    expect(await gate.commit("completion")).toBeUndefined();
    await writeFiles(folders.workspace, { "b.txt": "new" });
    gate.noteChanges(undefined);
    const completion = await gate.commit("completion");
    expect(completion).toMatch(/^[0-9a-f]{40}$/);
    expect(created.map(([hash, reason]) => [hash, reason])).toEqual([
      [created[0]![0], "initial"],
      [turn, "turn"],
      [completion, "completion"],
    ]);
    expect(warnings).toEqual([]);
    const listed = await tracker.list({ taskId: "task-1" });
    expect(listed.find((checkpoint) => checkpoint.hash === turn)).toMatchObject({ apiHistoryLength: 4, uiMessageCount: 9 });
  });

  it("a turn's checkpoint runs on without the caller, records where the conversation stood when it was asked for, and is waited for before the next change", async () => {
    const tracker = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir });
    const { gate, created, setPosition } = recordingGate(tracker);
    gate.startInitial();
    await gate.waitInitial();
    await writeFiles(folders.workspace, { "a.txt": "2" });
    gate.noteChanges([join(folders.workspace, "a.txt")]);
    setPosition({ apiHistoryLength: 2, uiMessageCount: 5 });
    const turn = gate.commit("turn");
    // The conversation goes on at once (the next request); the checkpoint keeps the position it was asked at.
    setPosition({ apiHistoryLength: 3, uiMessageCount: 7 });
    await gate.waitInitial();
    expect(created.map(([, reason]) => reason)).toEqual(["initial", "turn"]);
    const hash = await turn;
    expect((await tracker.list({ taskId: "task-1" })).find((checkpoint) => checkpoint.hash === hash)).toMatchObject({ apiHistoryLength: 2, uiMessageCount: 5 });
  });

  it("in a large workspace, stages the files tools named since the last checkpoint, and scans after a command", async () => {
    const tracker = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir, largeIndexBytes: 0 });
    const { gate } = recordingGate(tracker);
    gate.startInitial();
    await gate.waitInitial();
    const files = async (hash: string | undefined): Promise<string[]> => (await tracker.diff(hash!)).files.map((file) => file.path).sort();
    const first = (await tracker.list())[0]!.hash;
    await writeFiles(folders.workspace, { "a.txt": "by a tool", "b.txt": "by someone else" });
    gate.noteChanges([join(folders.workspace, "a.txt")]);
    const turn = await gate.commit("turn");
    expect((await tracker.diff(first, turn)).files.map((file) => file.path)).toEqual(["a.txt"]);
    // Nothing named since: the completion records nothing (b.txt waits for a scan).
    expect(await gate.commit("completion")).toBeUndefined();
    gate.noteChanges(undefined);
    const scanned = await gate.commit("completion");
    expect((await tracker.diff(turn!, scanned)).files.map((file) => file.path)).toEqual(["b.txt"]);
    expect(await files(scanned)).toEqual([]);
  });

  it("T16: turns checkpoints off with a warning instead of stalling when the first snapshot is too slow", async () => {
    const tracker = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir });
    const { gate, created, warnings } = recordingGate(tracker, { firstTimeoutMs: 0 });
    gate.startInitial();
    await gate.waitInitial();
    expect(created).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/checkpoints are off for this task: snapshotting the workspace took longer than 0 ms/);
    await writeFiles(folders.workspace, { "a.txt": "changed" });
    expect(await gate.commit("turn")).toBeUndefined();
    expect(await gate.commit("completion")).toBeUndefined();
    expect(warnings).toHaveLength(1);
  });

  it("runs without checkpoints, with the reason as a warning, in the home folder", async () => {
    const tracker = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir, homeFolder: folders.workspace });
    const { gate, created, warnings } = recordingGate(tracker);
    gate.startInitial();
    await gate.waitInitial();
    expect(await gate.commit("completion")).toBeUndefined();
    expect(created).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/checkpoints are off in your home folder itself/)]);
  });

  it("does nothing and says nothing when checkpoints are off", async () => {
    const { gate, created, warnings } = recordingGate(undefined);
    gate.startInitial();
    await gate.waitInitial();
    expect(await gate.commit("completion")).toBeUndefined();
    expect([created, warnings]).toEqual([[], []]);
  });
});
