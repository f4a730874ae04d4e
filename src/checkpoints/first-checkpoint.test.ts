import { execFileSync } from "node:child_process";
import { chmod, copyFile, lstat, mkdir, rename, rm, symlink, unlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CheckpointTracker } from "./tracker.js";
import { useCheckpointFolders, workspaceFiles, writeFiles } from "./test-support/workspace.js";

const folders = useCheckpointFolders();

const userGit = (root: string, ...args: string[]): string => execFileSync("git", ["-c", "user.name=User", "-c", "user.email=user@example.com", ...args], { cwd: root, encoding: "utf8" });

const shadowGit = (subject: CheckpointTracker, args: string[], env: Record<string, string> = {}): string =>
  execFileSync("git", [`--git-dir=${subject.gitDir}`, `--work-tree=${subject.workspace}`, ...args], {
    cwd: subject.workspace,
    encoding: "utf8",
    env: { PATH: process.env["PATH"] ?? "", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", ...env },
  });

const exists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** What the index way records as a new shadow's first checkpoint: the user's index copied, `git add -A` on the workspace with the shadow's rules, `write-tree`. */
async function indexWayTree(subject: CheckpointTracker): Promise<string> {
  const index = join(subject.gitDir, "expected.index");
  await copyFile(join(subject.workspace, ".git", "index"), index);
  try {
    shadowGit(subject, ["add", "-A"], { GIT_INDEX_FILE: index });
    return shadowGit(subject, ["write-tree"], { GIT_INDEX_FILE: index }).trim();
  } finally {
    await rm(index, { force: true });
  }
}

async function firstCheckpoint(workspace: string, dataDir: string): Promise<{ subject: CheckpointTracker; commit: string }> {
  const subject = new CheckpointTracker({ workspace, dataDir, largeIndexBytes: 0 });
  await subject.init({ firstCheckpoint: true });
  return { subject, commit: (await subject.commit({ taskId: "t", reason: "initial" }))! };
}

describe("the first checkpoint of a new shadow repository built from the user's git", () => {
  it("gives the tree of the index way for random workspaces, without the shadow index, and restores each exactly", async () => {
    // A fixed pseudo-random sequence, so a failure can be replayed.
    let seed = 7;
    const random = (below: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % below;
    };
    const names = ["a.txt", "b.bin", "run.sh", "src/c.ts", "src/d.ts", "src/deep/e.md", "docs/f.md", "g.log", "link"];
    for (let round = 0; round < 6; round += 1) {
      const workspace = join(folders.workspace, `ws-${round}`);
      await writeFiles(workspace, {
        ".gitignore": "*.log\nignored/\n",
        "a.txt": "a\n",
        "b.bin": Buffer.from([0, 1, 255]),
        "run.sh": "#!/bin/sh\n",
        "src/c.ts": "c\n",
        "src/d.ts": "d\n",
        "src/deep/e.md": "e\n",
        "docs/f.md": "f\n",
      });
      await chmod(join(workspace, "run.sh"), 0o755);
      await symlink("a.txt", join(workspace, "link"));
      userGit(workspace, "init", "-q");
      userGit(workspace, "add", "-A");
      if (round % 2 === 1) {
        // A file the user tracks although .gitignore names it: the shadow keeps it, as the user's git does.
        await writeFiles(workspace, { "g.log": "tracked, ignored\n" });
        userGit(workspace, "add", "-f", "g.log");
      }
      userGit(workspace, "commit", "-q", "-m", "user commit");
      // The user's changes since: edits, deletions, a rename, modes, a symlink moved, new, ignored and default-excluded files, a staged edit.
      for (let change = 0; change < 2 + random(6); change += 1) {
        const name = names[random(names.length)]!;
        const path = join(workspace, name);
        const kind = random(6);
        const present = await exists(path);
        if (kind === 0 && present) await rm(path);
        else if (kind === 1 && present && name !== "link") await chmod(path, random(2) === 0 ? 0o755 : 0o644);
        else if (kind === 2 && present && name !== "link") await rename(path, join(workspace, `moved-${round}-${change}.txt`));
        else if (kind === 3 && name === "link") {
          if (present) await unlink(path);
          await symlink(random(2) === 0 ? "src/c.ts" : "missing", path);
        } else if (name !== "link") await writeFiles(workspace, { [name]: random(3) === 0 ? Buffer.from([round, change, 0, 255]) : `round ${round}, change ${change}\n` });
      }
      await writeFiles(workspace, { [`new-${round}/n.txt`]: "new\n", "ignored/i.txt": "ignored\n", "x.log": "ignored\n", "node_modules/m.js": "excluded\n" });
      if (random(2) === 0) {
        await writeFiles(workspace, { "src/staged.ts": `staged ${round}\n` });
        userGit(workspace, "add", "src/staged.ts");
        if (random(2) === 0) await writeFiles(workspace, { "src/staged.ts": `staged, then edited ${round}\n` });
      }
      const before = await workspaceFiles(workspace);
      const userIndex = execFileSync("sha1sum", [join(workspace, ".git", "index")], { encoding: "utf8" });

      const { subject, commit } = await firstCheckpoint(workspace, join(folders.dataDir, `data-${round}`));
      // Built without the shadow index: it is still the user's, marked behind HEAD.
      expect(await exists(join(subject.gitDir, "cairn-index-behind"))).toBe(true);
      expect(shadowGit(subject, ["rev-parse", `${commit}^{tree}`]).trim()).toBe(await indexWayTree(subject));
      expect(execFileSync("sha1sum", [join(workspace, ".git", "index")], { encoding: "utf8" })).toBe(userIndex);

      // A later scan brings the shadow index in step; a restore to the first checkpoint gives the workspace back.
      await writeFiles(workspace, { "a.txt": "later\n" });
      await rm(join(workspace, "src"), { recursive: true, force: true });
      expect(await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true })).toBeDefined();
      expect(await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true })).toBeUndefined();
      await subject.restoreFiles(commit, { taskId: "t" });
      expect(await workspaceFiles(workspace)).toEqual(before);
    }
  });

  it("takes the index way where the user's git would judge files otherwise (a pattern in the user's info/exclude)", async () => {
    const workspace = folders.workspace;
    await writeFiles(workspace, { "a.txt": "a\n" });
    userGit(workspace, "init", "-q");
    userGit(workspace, "add", "-A");
    userGit(workspace, "commit", "-q", "-m", "user commit");
    await mkdir(join(workspace, ".git", "info"), { recursive: true });
    await writeFiles(workspace, { ".git/info/exclude": "secret.txt\n", "secret.txt": "the user's git ignores it, the shadow does not\n" });
    const { subject, commit } = await firstCheckpoint(workspace, folders.dataDir);
    expect(await exists(join(subject.gitDir, "cairn-index-behind"))).toBe(false);
    expect(shadowGit(subject, ["ls-tree", "--name-only", commit]).split("\n").filter(Boolean)).toEqual(["a.txt", "secret.txt"]);
  });

  it("does not use the user's status started early when the user's index changed before the first checkpoint read it", async () => {
    const workspace = folders.workspace;
    await writeFiles(workspace, { "a.txt": "a\n", "b.txt": "b\n" });
    userGit(workspace, "init", "-q");
    userGit(workspace, "add", "-A");
    userGit(workspace, "commit", "-q", "-m", "user commit");
    await writeFiles(workspace, { "c.txt": "new\n" });
    const subject = new CheckpointTracker({ workspace, dataDir: folders.dataDir, largeIndexBytes: 0 });
    // `init` starts the user's status (given time to end); a.txt is then dropped from the user's index but stays on disk (untracked now).
    await subject.init({ firstCheckpoint: true });
    await new Promise((resolve) => setTimeout(resolve, 400));
    userGit(workspace, "rm", "-q", "--cached", "a.txt");
    const commit = (await subject.commit({ taskId: "t", reason: "initial" }))!;
    expect(shadowGit(subject, ["ls-tree", "--name-only", commit]).split("\n").filter(Boolean)).toEqual(["a.txt", "b.txt", "c.txt"]);
    expect(shadowGit(subject, ["rev-parse", `${commit}^{tree}`]).trim()).toBe(await indexWayTree(subject));
  });

  it("takes the user's index's tree as it is for a clean checkout, and restores to it", async () => {
    const workspace = folders.workspace;
    await writeFiles(workspace, { "a.txt": "a\n", "src/b.ts": "b\n", ".gitignore": "*.log\n", "run.log": "ignored\n" });
    userGit(workspace, "init", "-q");
    userGit(workspace, "add", "-A");
    userGit(workspace, "commit", "-q", "-m", "user commit");
    const before = await workspaceFiles(workspace);
    const { subject, commit } = await firstCheckpoint(workspace, folders.dataDir);
    // Built without the shadow index (the index way leaves no marker).
    expect(await exists(join(subject.gitDir, "cairn-index-behind"))).toBe(true);
    expect(shadowGit(subject, ["rev-parse", `${commit}^{tree}`]).trim()).toBe(userGit(workspace, "rev-parse", "HEAD^{tree}").trim());
    expect(await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true })).toBeUndefined();
    await writeFiles(workspace, { "a.txt": "changed\n", "new.txt": "new\n" });
    await rm(join(workspace, "src"), { recursive: true });
    await subject.restoreFiles(commit, { taskId: "t" });
    expect(await workspaceFiles(workspace)).toEqual(before);
  });
});
