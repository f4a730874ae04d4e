import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CheckpointUnavailableError } from "./git.js";
import { CheckpointTracker } from "./tracker.js";
import { fingerprint, initUserRepository, readText, useCheckpointFolders, writeFiles } from "./test-support/workspace.js";

const folders = useCheckpointFolders();

const limit = 2_000;
const big = "B".repeat(limit + 1);

async function tracker(): Promise<CheckpointTracker> {
  const created = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir, maxFileBytes: limit });
  await created.init();
  return created;
}

/** Changes every kind of file after a checkpoint, restores, and checks what came back and what was left alone. */
async function editRestoreAndCheck(subject: CheckpointTracker): Promise<void> {
  await writeFiles(folders.workspace, {
    "src/app.ts": "original",
    "src/gone.ts": "will be deleted",
    ".gitignore": "secret.env\n",
    "secret.env": "TOKEN=1",
    "node_modules/lib/index.js": "module",
    "huge.bin": big,
  });
  const first = (await subject.commit({ taskId: "t", reason: "initial" }))!;
  const { rm } = await import("node:fs/promises");
  await writeFiles(folders.workspace, {
    "src/app.ts": "edited by the agent",
    "src/new/created.ts": "created later",
    "secret.env": "TOKEN=2",
    "node_modules/lib/index.js": "module v2",
    "huge.bin": `${big}more`,
    "huge-new.bin": big,
  });
  await rm(join(folders.workspace, "src/gone.ts"));

  const result = await subject.restoreFiles(first, { taskId: "t" });
  expect(result.restored.sort()).toEqual(["src/app.ts", "src/gone.ts"]);
  expect(result.removed).toEqual(["src/new/created.ts"]);
  expect(await readText(join(folders.workspace, "src/app.ts"))).toBe("original");
  expect(await readText(join(folders.workspace, "src/gone.ts"))).toBe("will be deleted");
  expect(await readText(join(folders.workspace, "src/new/created.ts"))).toBeUndefined();
  // Ignored, excluded-by-default and large files are left exactly as they are now.
  expect(await readText(join(folders.workspace, "secret.env"))).toBe("TOKEN=2");
  expect(await readText(join(folders.workspace, "node_modules/lib/index.js"))).toBe("module v2");
  expect(await readText(join(folders.workspace, "huge.bin"))).toBe(`${big}more`);
  expect(await readText(join(folders.workspace, "huge-new.bin"))).toBe(big);

  // The restore can be undone: the state just before it was checkpointed.
  const undo = await subject.restoreFiles(result.undoHash, { taskId: "t" });
  expect(undo.restored.sort()).toEqual(["src/app.ts", "src/new/created.ts"]);
  expect(await readText(join(folders.workspace, "src/app.ts"))).toBe("edited by the agent");
  expect(await readText(join(folders.workspace, "src/gone.ts"))).toBeUndefined();
}

describe("CheckpointTracker", () => {
  it("restores files in a workspace that is not a git repository", async () => {
    await editRestoreAndCheck(await tracker());
  });

  it("restores files in a git repository without touching the user's .git", async () => {
    await writeFiles(folders.workspace, { "README.md": "readme", "src/app.ts": "original" });
    initUserRepository(folders.workspace);
    const before = await fingerprint(join(folders.workspace, ".git"));
    await editRestoreAndCheck(await tracker());
    expect(await fingerprint(join(folders.workspace, ".git"))).toEqual(before);
  });

  it("checkpoints files inside nested repositories without touching their .git folders", async () => {
    await writeFiles(folders.workspace, { "top.txt": "top", "libs/inner/lib.txt": "v1\n", "libs/inner/.gitignore": "local.txt\n" });
    initUserRepository(join(folders.workspace, "libs/inner"));
    const nestedBefore = await fingerprint(join(folders.workspace, "libs/inner/.git"));
    const subject = await tracker();
    const first = (await subject.commit({ taskId: "t", reason: "initial" }))!;
    await writeFiles(folders.workspace, { "libs/inner/lib.txt": "v2\n", "libs/inner/added.txt": "new", "libs/inner/local.txt": "ignored" });

    const diff = await subject.diff(first);
    expect(diff.files).toEqual([
      { path: "libs/inner/added.txt", status: "added" },
      { path: "libs/inner/lib.txt", status: "modified" },
    ]);
    expect(diff.patch).toContain("-v1\n+v2");

    const result = await subject.restoreFiles(first, { taskId: "t" });
    expect(result.restored).toEqual(["libs/inner/lib.txt"]);
    expect(await readText(join(folders.workspace, "libs/inner/lib.txt"))).toBe("v1\n");
    expect(await readText(join(folders.workspace, "libs/inner/added.txt"))).toBeUndefined();
    expect(await readText(join(folders.workspace, "libs/inner/local.txt"))).toBe("ignored");
    expect(await fingerprint(join(folders.workspace, "libs/inner/.git"))).toEqual(nestedBefore);
  });

  it("makes a turn checkpoint only when files changed, and lists a task's checkpoints newest first", async () => {
    await writeFiles(folders.workspace, { "a.txt": "1" });
    const subject = await tracker();
    const initial = await subject.commit({ taskId: "t1", reason: "initial", apiHistoryLength: 0, uiMessageCount: 2 });
    expect(await subject.commit({ taskId: "t1", reason: "turn" }, { onlyIfChanged: true })).toBeUndefined();
    await writeFiles(folders.workspace, { "a.txt": "2" });
    const turn = await subject.commit({ taskId: "t1", reason: "turn", apiHistoryLength: 3, uiMessageCount: 7 }, { onlyIfChanged: true });
    expect(turn).toMatch(/^[0-9a-f]{40}$/);
    const completion = await subject.commit({ taskId: "t1", reason: "completion" });
    expect(completion).not.toBe(turn);
    await subject.commit({ taskId: "other", reason: "initial" });

    const listed = await subject.list({ taskId: "t1" });
    expect(listed.map((checkpoint) => [checkpoint.hash, checkpoint.reason])).toEqual([
      [completion, "completion"],
      [turn, "turn"],
      [initial, "initial"],
    ]);
    expect(listed[1]).toMatchObject({ apiHistoryLength: 3, uiMessageCount: 7 });
    expect((await subject.list()).length).toBe(4);
  });

  it("a turn checkpoint (git status, update-index, commit -a) records edits, deletions and new files, never large or ignored ones", async () => {
    await writeFiles(folders.workspace, { "a.txt": "1", "gone.txt": "x", ".gitignore": "*.log\n" });
    const subject = await tracker();
    const initial = (await subject.commit({ taskId: "t", reason: "initial" }))!;
    const { rm } = await import("node:fs/promises");
    // Only tracked changes: no new file.
    await writeFiles(folders.workspace, { "a.txt": "2" });
    const edited = await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true });
    expect((await subject.diff(initial, edited)).files).toEqual([{ path: "a.txt", status: "modified" }]);
    // New files (one large, one ignored), an edit and a deletion in one turn.
    await writeFiles(folders.workspace, { "a.txt": "3", "src/new.ts": "new", "huge.bin": big, "run.log": "noise" });
    await rm(join(folders.workspace, "gone.txt"));
    const turn = await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true });
    expect(turn).toMatch(/^[0-9a-f]{40}$/);
    expect((await subject.diff(edited!, turn)).files).toEqual([
      { path: "a.txt", status: "modified" },
      { path: "gone.txt", status: "deleted" },
      { path: "src/new.ts", status: "added" },
    ]);
    // The large file is excluded from now on, so it does not make later turns look changed.
    expect(await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true })).toBeUndefined();
    // A file changed and changed back is no change either.
    await writeFiles(folders.workspace, { "a.txt": "4" });
    await writeFiles(folders.workspace, { "a.txt": "3" });
    expect(await subject.commit({ taskId: "t", reason: "completion" }, { onlyIfChanged: true })).toBeUndefined();
    // A nested repository that appears in a turn is handled the slow, careful way.
    await writeFiles(folders.workspace, { "libs/inner/lib.txt": "v1" });
    initUserRepository(join(folders.workspace, "libs/inner"));
    const nested = await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true });
    expect((await subject.diff(turn!, nested)).files).toEqual([{ path: "libs/inner/lib.txt", status: "added" }]);
    await writeFiles(folders.workspace, { "libs/inner/more.txt": "new inside" });
    const inside = await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true });
    expect((await subject.diff(nested!, inside)).files).toEqual([{ path: "libs/inner/more.txt", status: "added" }]);
  });

  it("a scanned checkpoint of a large index records the files of new folders (nested ones too), never large or ignored ones, and a restore takes them away", async () => {
    await writeFiles(folders.workspace, { "a.txt": "1", ".gitignore": "*.log\n" });
    const subject = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir, maxFileBytes: limit, largeIndexBytes: 0 });
    await subject.init();
    const initial = (await subject.commit({ taskId: "t", reason: "initial" }))!;
    // As a command leaves them: new folders, one inside another, one holding only what is not recorded.
    await writeFiles(folders.workspace, { "gen/out.ts": "generated", "gen/deep/more/x.ts": "deeper", "gen/huge.bin": big, "gen/run.log": "noise", "logs/only.log": "noise" });
    const scanned = (await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true }))!;
    expect((await subject.diff(initial, scanned)).files).toEqual([
      { path: "gen/deep/more/x.ts", status: "added" },
      { path: "gen/out.ts", status: "added" },
    ]);
    // A file added to a folder seen before, and nothing else: found again (the folder's mtime changed).
    await writeFiles(folders.workspace, { "gen/deep/later.ts": "later" });
    const later = (await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true }))!;
    expect((await subject.diff(scanned, later)).files).toEqual([{ path: "gen/deep/later.ts", status: "added" }]);
    expect(await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true })).toBeUndefined();
    const restored = await subject.restoreFiles(initial, { taskId: "t" });
    expect(restored.removed.sort()).toEqual(["gen/deep/later.ts", "gen/deep/more/x.ts", "gen/out.ts"]);
    expect(await readText(join(folders.workspace, "gen/huge.bin"))).toBe(big);
    expect(await readText(join(folders.workspace, "logs/only.log"))).toBe("noise");
  });

  it("the first checkpoint of a later task in a kept shadow repository records what changed since the last task, and a restore to the earlier task is exact", async () => {
    await writeFiles(folders.workspace, { "a.txt": "1", "b.txt": "2", ".gitignore": "*.log\n" });
    const options = { workspace: folders.workspace, dataDir: folders.dataDir, maxFileBytes: limit, largeIndexBytes: 0 };
    const firstTask = new CheckpointTracker(options);
    await firstTask.init({ firstCheckpoint: true });
    const before = (await firstTask.commit({ taskId: "t1", reason: "initial" }))!;
    // Between the tasks: an edit, a deletion, a new folder, an ignored and a large file.
    await writeFiles(folders.workspace, { "a.txt": "edited", "new/c.txt": "3", "run.log": "noise", "new/huge.bin": big });
    const { rm } = await import("node:fs/promises");
    await rm(join(folders.workspace, "b.txt"));
    const secondTask = new CheckpointTracker(options);
    await secondTask.init({ firstCheckpoint: true });
    const after = (await secondTask.commit({ taskId: "t2", reason: "initial" }))!;
    expect((await secondTask.diff(before, after)).files).toEqual([
      { path: "a.txt", status: "modified" },
      { path: "b.txt", status: "deleted" },
      { path: "new/c.txt", status: "added" },
    ]);
    // The shadow index is in step: the next scan finds nothing new, and a restore to the first task's checkpoint is exact.
    expect(await secondTask.commit({ taskId: "t2", reason: "turn" }, { onlyIfChanged: true })).toBeUndefined();
    await secondTask.restoreFiles(before, { taskId: "t2" });
    expect([await readText(join(folders.workspace, "a.txt")), await readText(join(folders.workspace, "b.txt")), await readText(join(folders.workspace, "new/c.txt"))]).toEqual(["1", "2", undefined]);
    expect(await readText(join(folders.workspace, "new/huge.bin"))).toBe(big);
  });

  it("diffs two checkpoints and names a hash that does not exist", async () => {
    await writeFiles(folders.workspace, { "a.txt": "one\n" });
    const subject = await tracker();
    const first = (await subject.commit({ taskId: "t", reason: "initial" }))!;
    await writeFiles(folders.workspace, { "a.txt": "two\n", "b.txt": "b\n" });
    const second = (await subject.commit({ taskId: "t", reason: "turn" }))!;
    const diff = await subject.diff(first, second);
    expect(diff.files).toEqual([
      { path: "a.txt", status: "modified" },
      { path: "b.txt", status: "added" },
    ]);
    expect(diff.patch).toContain("+two");
    await expect(subject.diff("deadbeef")).rejects.toThrow(/there is no checkpoint deadbeef/);
    await expect(subject.diff("HEAD~1; rm -rf")).rejects.toThrow(/not a checkpoint hash/);
  });

  it("works with no git identity and ignores GIT_DIR pointing elsewhere", async () => {
    await writeFiles(folders.workspace, { "a.txt": "1" });
    const decoy = join(folders.dataDir, "decoy");
    await mkdir(decoy);
    const saved = { ...process.env };
    process.env["GIT_DIR"] = decoy;
    process.env["GIT_WORK_TREE"] = decoy;
    process.env["GIT_AUTHOR_NAME"] = "";
    try {
      const subject = await tracker();
      expect(await subject.commit({ taskId: "t", reason: "initial" })).toMatch(/^[0-9a-f]{40}$/);
    } finally {
      process.env = saved;
    }
    expect(await fingerprint(decoy)).toEqual({});
  });

  it("refuses the home folder itself with a clear message", async () => {
    const subject = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir, homeFolder: folders.workspace });
    await expect(subject.init()).rejects.toThrow(CheckpointUnavailableError);
    await expect(subject.init()).rejects.toThrow(/checkpoints are off in your home folder itself/);
    const rootTracker = new CheckpointTracker({ workspace: "/", dataDir: folders.dataDir });
    await expect(rootTracker.init()).rejects.toThrow(/root of the file system/);
  });

  it("says git is missing when it cannot be found", async () => {
    const saved = process.env["PATH"];
    process.env["PATH"] = folders.dataDir;
    try {
      const subject = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir });
      await expect(subject.init()).rejects.toThrow(/git is not installed/);
    } finally {
      process.env["PATH"] = saved;
    }
  });
});
