import { execFileSync } from "node:child_process";
import { lstatSync } from "node:fs";
import { chmod, mkdir, rm, stat, symlink, unlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { CheckpointTracker } from "./tracker.js";
import { initUserRepository, useCheckpointFolders, workspaceFiles, writeFiles } from "./test-support/workspace.js";

const folders = useCheckpointFolders();
const limit = 4_000;
const at = (path: string): string => join(folders.workspace, path);

/** Every index counts as large, so named turns and scans take the ways of issue 33. */
async function tracker(): Promise<CheckpointTracker> {
  const created = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir, maxFileBytes: limit, largeIndexBytes: 0 });
  await created.init();
  return created;
}

const shadowGit = (subject: CheckpointTracker, args: string[], env: Record<string, string> = {}): string =>
  execFileSync("git", [`--git-dir=${subject.gitDir}`, `--work-tree=${folders.workspace}`, ...args], {
    cwd: folders.workspace,
    encoding: "utf8",
    stdio: ["pipe", "pipe", "pipe"],
    env: { PATH: process.env["PATH"] ?? "", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", ...env },
  });

const treeOf = (subject: CheckpointTracker, commit: string): string => shadowGit(subject, ["rev-parse", `${commit}^{tree}`]).trim();

/** What the index way records for `paths` on top of `parent`: `git add -A` on them in an index holding the parent's tree, then `write-tree`. */
function indexWayTree(subject: CheckpointTracker, parent: string, paths: string[]): string {
  const env = { GIT_INDEX_FILE: join(subject.gitDir, "test-index") };
  shadowGit(subject, ["read-tree", parent], env);
  // `git add` refuses the lot for a path that is neither in the work tree nor in the index.
  const known = paths.filter((path) => lstatSync(at(path), { throwIfNoEntry: false }) !== undefined || shadowGit(subject, ["ls-tree", "--name-only", parent, "--", path]) !== "");
  if (known.length === 0) return shadowGit(subject, ["write-tree"], env).trim();
  try {
    shadowGit(subject, ["add", "-A", "--", ...known], env);
  } catch {
    // Exit 1 when a named path is ignored: the others are added all the same.
  }
  return shadowGit(subject, ["write-tree"], env).trim();
}

const indexStamp = async (subject: CheckpointTracker): Promise<string> => {
  const info = await stat(join(subject.gitDir, "index"));
  return `${info.mtimeMs} ${info.size}`;
};

describe("a named turn recorded without the shadow index", () => {
  it("records every kind of file as git add -A would, leaves the index alone, and restores exactly after a later scanned checkpoint", async () => {
    await writeFiles(folders.workspace, {
      ".gitignore": "*.log\nbuild/\n",
      "src/a.ts": "a\n",
      "src/old-name.ts": "to be renamed\n",
      "bin/run.sh": "#!/bin/sh\necho run\n",
      "docs/gone.md": "deleted by the turn\n",
      "data/blob.bin": Buffer.from([0, 1, 2, 255, 254, 0, 10]),
      "tracked.log": "tracked although ignored\n",
    });
    await symlink("src/a.ts", at("link"));
    initUserRepository(folders.workspace);
    execFileSync("git", ["add", "-f", "tracked.log"], { cwd: folders.workspace });
    execFileSync("git", ["-c", "user.name=User", "-c", "user.email=user@example.com", "commit", "-q", "-m", "tracked although ignored"], { cwd: folders.workspace });
    await writeFiles(folders.workspace, { "notes.txt": "untracked\n", "big.dat": "x".repeat(limit + 1) });
    const subject = await tracker();
    const initial = (await subject.commit({ taskId: "t", reason: "initial" }))!;
    const before = await workspaceFiles(folders.workspace);

    // The turn: an edit, a rename, a deletion, a binary edit, a new executable in a new folder, a script made
    // executable, a symlink pointed elsewhere, an ignored tracked file edited, new ignored files.
    await writeFiles(folders.workspace, {
      "src/a.ts": "a, edited\n",
      "src/new-name.ts": "to be renamed\n",
      "data/blob.bin": Buffer.from([255, 0, 0, 1]),
      "tools/deep/new.sh": "#!/bin/sh\n",
      "tracked.log": "tracked, edited\n",
      "out.log": "ignored\n",
      "build/out.js": "ignored folder\n",
    });
    await unlink(at("src/old-name.ts"));
    await rm(at("docs"), { recursive: true });
    await chmod(at("bin/run.sh"), 0o755);
    await chmod(at("tools/deep/new.sh"), 0o755);
    await unlink(at("link"));
    await symlink("bin/run.sh", at("link"));
    const named = ["src/a.ts", "src/new-name.ts", "src/old-name.ts", "docs/gone.md", "data/blob.bin", "tools/deep/new.sh", "bin/run.sh", "link", "tracked.log", "out.log", "build/out.js"];
    const stamp = await indexStamp(subject);
    const turn = (await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true, paths: named.map(at) }))!;
    expect(turn).toBeDefined();
    expect(await indexStamp(subject)).toBe(stamp);
    expect(treeOf(subject, turn)).toBe(indexWayTree(subject, initial, named));
    const afterTurn = await workspaceFiles(folders.workspace);

    // A change no tool named, then a scan: it is recorded, and nothing the turn recorded is lost.
    await writeFiles(folders.workspace, { "notes.txt": "edited outside cairn\n" });
    const scanned = (await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true }))!;
    expect(scanned).toBeDefined();
    const afterScan = await workspaceFiles(folders.workspace);
    expect(await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true })).toBeUndefined();

    const ignored = { "out.log": afterTurn["out.log"]!, "build/out.js": afterTurn["build/out.js"]! };
    await subject.restoreFiles(initial, { taskId: "t" });
    expect(await workspaceFiles(folders.workspace)).toEqual({ ...before, ...ignored });
    await subject.restoreFiles(turn, { taskId: "t" });
    expect(await workspaceFiles(folders.workspace)).toEqual(afterTurn);
    await subject.restoreFiles(scanned, { taskId: "t" });
    expect(await workspaceFiles(folders.workspace)).toEqual(afterScan);
    // The next scan records the workspace as restored: the scanned checkpoint's tree.
    const again = (await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true }))!;
    expect(treeOf(subject, again)).toBe(treeOf(subject, scanned));
  });

  it("gives the same tree as git add -A and write-tree for random changes, turn after turn", async () => {
    // A fixed pseudo-random sequence, so a failure can be replayed.
    let seed = 20261203;
    const random = (below: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % below;
    };
    const names = ["a.txt", "b.md", "src/c.ts", "src/d.ts", "src/deep/e.ts", "lib/f.js", "lib/g.bin", "x.log", "build/h.js", "s p a c e.txt", "new/dir/i.txt"];
    await writeFiles(folders.workspace, { ".gitignore": "*.log\nbuild/\n", "a.txt": "a\n", "src/c.ts": "c\n", "lib/f.js": "f\n" });
    initUserRepository(folders.workspace);
    const subject = await tracker();
    let parent = (await subject.commit({ taskId: "t", reason: "initial" }))!;
    for (let round = 0; round < 12; round += 1) {
      const touched = new Set<string>();
      for (let change = 0; change < 1 + random(4); change += 1) {
        const name = names[random(names.length)]!;
        touched.add(name);
        const path = at(name);
        const exists = await stat(path).then(
          () => true,
          () => false,
        );
        const kind = random(5);
        if (kind === 0 && exists) await rm(path);
        else if (kind === 1 && exists) await chmod(path, random(2) === 0 ? 0o755 : 0o644);
        else if (kind === 2) {
          await rm(path, { force: true });
          await mkdir(dirname(path), { recursive: true });
          await symlink(`target-${round}`, path);
        } else {
          await rm(path, { force: true });
          await writeFiles(folders.workspace, { [name]: random(3) === 0 ? Buffer.from([round, 0, 255]) : `round ${round}\n` });
        }
      }
      // Sometimes a path that did not change is named too.
      if (random(3) === 0) touched.add(names[random(names.length)]!);
      const paths = [...touched];
      const stamp = await indexStamp(subject);
      const made = await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true, paths: paths.map(at) });
      expect(await indexStamp(subject)).toBe(stamp);
      const expected = indexWayTree(subject, parent, paths);
      if (made === undefined) expect(expected).toBe(treeOf(subject, parent));
      else {
        expect(treeOf(subject, made)).toBe(expected);
        parent = made;
      }
      // Every third round a scan: it finds nothing the named turns left out.
      if (round % 3 === 2) expect(await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true })).toBeUndefined();
    }
  });

  it("keeps the names of a folder's other files byte for byte, UTF-8 or not", async () => {
    await writeFiles(folders.workspace, { "src/a.ts": "a\n", "src/été.md": "utf-8 name\n" });
    // A name that is not UTF-8 (Latin-1 "né.txt"), as Linux allows.
    await writeFile(Buffer.concat([Buffer.from(`${folders.workspace}/src/`), Buffer.from([0x6e, 0xe9, 0x2e, 0x74, 0x78, 0x74])]), "latin-1 name\n");
    initUserRepository(folders.workspace);
    const subject = await tracker();
    const initial = (await subject.commit({ taskId: "t", reason: "initial" }))!;
    await writeFiles(folders.workspace, { "src/a.ts": "a, edited\n", "src/ünï.txt": "new\n" });
    const stamp = await indexStamp(subject);
    const turn = (await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true, paths: [at("src/a.ts"), at("src/ünï.txt")] }))!;
    expect(await indexStamp(subject)).toBe(stamp);
    expect(treeOf(subject, turn)).toBe(indexWayTree(subject, initial, ["src/a.ts", "src/ünï.txt"]));
  });

  it("takes the index way where attributes change what git records (text=auto on a CRLF file)", async () => {
    await writeFiles(folders.workspace, { ".gitattributes": "* text=auto\n", "a.txt": "a\n" });
    initUserRepository(folders.workspace);
    const subject = await tracker();
    const initial = (await subject.commit({ taskId: "t", reason: "initial" }))!;
    await writeFiles(folders.workspace, { "a.txt": "one\r\ntwo\r\n" });
    const turn = (await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true, paths: [at("a.txt")] }))!;
    expect(treeOf(subject, turn)).toBe(indexWayTree(subject, initial, ["a.txt"]));
    expect(shadowGit(subject, ["show", `${turn}:a.txt`])).toBe("one\ntwo\n");
  });

  it("keeps a file recorded without the index when a later .gitignore ignores it, as a tracked file stays tracked", async () => {
    await writeFiles(folders.workspace, { "a.txt": "a\n" });
    initUserRepository(folders.workspace);
    const subject = await tracker();
    await subject.commit({ taskId: "t", reason: "initial" });
    await writeFiles(folders.workspace, { "gen.out": "generated\n" });
    const turn = (await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true, paths: [at("gen.out")] }))!;
    expect(shadowGit(subject, ["ls-tree", "--name-only", turn])).toContain("gen.out");
    await writeFiles(folders.workspace, { ".gitignore": "*.out\n", "gen.out": "generated, edited\n" });
    const next = (await subject.commit({ taskId: "t", reason: "turn" }, { onlyIfChanged: true, paths: [at(".gitignore"), at("gen.out")] }))!;
    expect(shadowGit(subject, ["show", `${next}:gen.out`])).toBe("generated, edited\n");
    // A diff against the work tree stages it all (`add -A`): the recorded file stays.
    await writeFile(at("a.txt"), "a, edited\n");
    const diff = await subject.diff(next);
    expect(diff.files).toEqual([{ path: "a.txt", status: "modified" }]);
  });
});
