import { execFileSync } from "node:child_process";
import { chmod, lstat, readdir, readFile, readlink, rename, rm, stat, symlink, unlink, utimes, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { borrowsObjects, waitForLocalCopy } from "./borrowed-objects.js";
import { CheckpointTracker } from "./tracker.js";
import { useCheckpointFolders, writeFiles } from "./test-support/workspace.js";

const folders = useCheckpointFolders();

const userGit = (root: string, ...args: string[]): string => execFileSync("git", ["-c", "user.name=User", "-c", "user.email=user@example.com", ...args], { cwd: root, encoding: "utf8" });

/** Every entry under `root` but .git: a file's content and executable bit, a symlink's target. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  async function walk(folder: string): Promise<void> {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const name = relative(root, path);
      if (name === ".git") continue;
      if (entry.isSymbolicLink()) result[name] = `-> ${await readlink(path)}`;
      else if (entry.isDirectory()) await walk(path);
      else result[name] = `${((await stat(path)).mode & 0o111) !== 0 ? "x " : ""}${(await readFile(path)).toString("base64")}`;
    }
  }
  await walk(root);
  return result;
}

/** A user repository with a commit, a staged change, untracked and ignored files, a binary, an executable and a symlink. */
async function userRepository(workspace: string): Promise<void> {
  await writeFiles(workspace, {
    ".gitignore": "*.log\n",
    "src/a.txt": "a\n",
    "src/b.txt": "b\n",
    "tool.sh": "#!/bin/sh\necho hi\n",
    "image.bin": Buffer.from([0, 1, 2, 255, 0, 10, 13]),
  });
  await chmod(join(workspace, "tool.sh"), 0o755);
  await symlink("src/a.txt", join(workspace, "link"));
  userGit(workspace, "init", "-q");
  userGit(workspace, "add", "-A");
  userGit(workspace, "commit", "-q", "-m", "user commit");
  await writeFiles(workspace, { "staged.txt": "staged, never committed\n" });
  userGit(workspace, "add", "staged.txt");
  await writeFiles(workspace, { "notes.txt": "untracked\n", "debug.log": "ignored\n" });
}

describe("checkpoints of a git workspace start from the workspace's own index", () => {
  it("restores untracked, deleted, renamed, binary, executable and symlinked files exactly, and leaves ignored ones alone", async () => {
    const { workspace, dataDir } = folders;
    await userRepository(workspace);
    const before = await snapshot(workspace);
    // largeIndexBytes 0: turn checkpoints take the large-repository way (git status, update-index, write-tree, commit-tree).
    const tracker = new CheckpointTracker({ workspace, dataDir, largeIndexBytes: 0 });
    await tracker.init();
    const initial = (await tracker.commit({ taskId: "t", reason: "initial" }))!;
    expect(await borrowsObjects(tracker.gitDir)).toBe(true);

    await unlink(join(workspace, "src/b.txt"));
    await rename(join(workspace, "src/a.txt"), join(workspace, "src/renamed.txt"));
    await writeFile(join(workspace, "image.bin"), Buffer.from([9, 9, 0, 9]));
    await chmod(join(workspace, "tool.sh"), 0o644);
    await unlink(join(workspace, "link"));
    await symlink("tool.sh", join(workspace, "link"));
    await writeFiles(workspace, { "notes.txt": "changed\n", "staged.txt": "changed too\n", "new/file.txt": "new\n", "debug.log": "ignored, changed\n" });
    await tracker.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true });

    const result = await tracker.restoreFiles(initial, { taskId: "t" });
    expect(result.removed.sort()).toEqual(["new/file.txt", "src/renamed.txt"]);
    expect(await snapshot(workspace)).toEqual({ ...before, "debug.log": Buffer.from("ignored, changed\n").toString("base64") });
    // The user's repository saw nothing of it.
    expect(userGit(workspace, "diff", "--cached", "--name-only")).toBe("staged.txt\n");
  });

  it("still restores after the user's git gc --prune=now deleted objects only the checkpoints refer to", async () => {
    const { workspace, dataDir } = folders;
    await userRepository(workspace);
    const tracker = new CheckpointTracker({ workspace, dataDir });
    await tracker.init();
    const initial = (await tracker.commit({ taskId: "t", reason: "initial" }))!;
    const stagedBlob = userGit(workspace, "rev-parse", ":staged.txt").trim();

    // The copy runs in the background; the next checkpoint finishes it and drops the link to the user's objects.
    expect(await waitForLocalCopy(tracker.gitDir)).toBe(true);
    await writeFiles(workspace, { "src/a.txt": "edited by the agent\n" });
    await tracker.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true });
    expect(await borrowsObjects(tracker.gitDir)).toBe(false);

    // The user stages something else and prunes: the staged blob the initial checkpoint recorded is gone from their store.
    await writeFiles(workspace, { "staged.txt": "staged again\n" });
    userGit(workspace, "add", "staged.txt");
    userGit(workspace, "reflog", "expire", "--expire=now", "--all");
    userGit(workspace, "gc", "-q", "--prune=now");
    expect(() => userGit(workspace, "cat-file", "-e", stagedBlob)).toThrow();

    await tracker.restoreFiles(initial, { taskId: "t" });
    expect(await readFile(join(workspace, "staged.txt"), "utf8")).toBe("staged, never committed\n");
    expect(await readFile(join(workspace, "src/a.txt"), "utf8")).toBe("a\n");
    // Not even the user's whole .git is needed any more.
    await rm(join(workspace, ".git"), { recursive: true, force: true });
    await writeFiles(workspace, { "src/b.txt": "gone wrong\n" });
    await tracker.restoreFiles(initial, { taskId: "t" });
    expect(await readFile(join(workspace, "src/b.txt"), "utf8")).toBe("b\n");
  });

  it("records an edit that keeps a file's size and mtime (the racy-git case), in the first checkpoint and in a later one", async () => {
    const { workspace, dataDir } = folders;
    await writeFiles(workspace, { "same.txt": "aaaa\n", "other.txt": "x\n" });
    userGit(workspace, "init", "-q");
    userGit(workspace, "add", "-A");
    userGit(workspace, "commit", "-q", "-m", "user commit");
    const sameSecond = async (content: string): Promise<void> => {
      const { mtime } = await lstat(join(workspace, "same.txt"));
      await writeFile(join(workspace, "same.txt"), content);
      await utimes(join(workspace, "same.txt"), mtime, mtime);
    };
    // Changed right after the user's `git add`, same length, same mtime: the index's stat data still matches.
    await sameSecond("bbbb\n");
    const tracker = new CheckpointTracker({ workspace, dataDir, largeIndexBytes: 0 });
    await tracker.init();
    const first = (await tracker.commit({ taskId: "t", reason: "initial" }))!;
    // The same after a checkpoint: written (with its own mtime), checkpointed, rewritten at once keeping size and mtime.
    await writeFile(join(workspace, "same.txt"), "cccc\n");
    const second = (await tracker.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true }))!;
    await sameSecond("dddd\n");
    const third = await tracker.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true });
    expect(third).toBeDefined();
    const show = (hash: string) => execFileSync("git", [`--git-dir=${tracker.gitDir}`, "show", `${hash}:same.txt`], { encoding: "utf8" });
    expect(show(first)).toBe("bbbb\n");
    expect(show(second)).toBe("cccc\n");
    expect(show(third!)).toBe("dddd\n");
  });

  it("leaves out what the user tracks but the excludes ignore and large files, as without an index", async () => {
    const { workspace, dataDir } = folders;
    await writeFiles(workspace, { "src/a.txt": "a\n", "dist/bundle.js": "built\n", "big.bin": Buffer.alloc(2048, 1) });
    userGit(workspace, "init", "-q");
    userGit(workspace, "add", "-A");
    userGit(workspace, "commit", "-q", "-m", "user commit");
    const tracker = new CheckpointTracker({ workspace, dataDir, maxFileBytes: 1024 });
    await tracker.init();
    const hash = (await tracker.commit({ taskId: "t", reason: "initial" }))!;
    const files = execFileSync("git", [`--git-dir=${tracker.gitDir}`, "ls-tree", "-r", "--name-only", hash], { encoding: "utf8" });
    expect(files.split("\n").filter(Boolean)).toEqual(["src/a.txt"]);
  });

  it.each([
    ["a file named like a default exclude", { "src/b.txt": "b\n", "src/cache.pyc": "compiled\n" }],
    ["a folder named like a default exclude", { "src/b.txt": "b\n", "src/build/out.js": "built\n" }],
  ])("leaves out %s that the user tracks, with nothing else unusual in the index", async (_, files) => {
    const { workspace, dataDir } = folders;
    await writeFiles(workspace, files);
    userGit(workspace, "init", "-q");
    userGit(workspace, "add", "-A");
    userGit(workspace, "commit", "-q", "-m", "user commit");
    const tracker = new CheckpointTracker({ workspace, dataDir });
    await tracker.init();
    const hash = (await tracker.commit({ taskId: "t", reason: "initial" }))!;
    const recorded = execFileSync("git", [`--git-dir=${tracker.gitDir}`, "ls-tree", "-r", "--name-only", hash], { encoding: "utf8" });
    expect(recorded.split("\n").filter(Boolean)).toEqual(["src/b.txt"]);
  });
});
