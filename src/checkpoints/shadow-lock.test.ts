import { execFileSync, spawnSync } from "node:child_process";
import { access, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { shadowLockName, withShadowLock } from "./shadow-lock.js";
import { CheckpointTracker } from "./tracker.js";
import { useCheckpointFolders, writeFiles } from "./test-support/workspace.js";

const folders = useCheckpointFolders();

it("two trackers of one workspace (two cairn processes, or a subagent beside its task) both land every checkpoint in the shared shadow repository", async () => {
  await writeFiles(folders.workspace, Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`src/file-${index}.txt`, `file ${index}\n`])));
  const open = async (): Promise<CheckpointTracker> => {
    const tracker = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir, largeIndexBytes: 0 });
    await tracker.init({ firstCheckpoint: true });
    return tracker;
  };
  const [first, second] = [await open(), await open()];
  await first.commit({ taskId: "a", reason: "initial" });
  const made = await Promise.all(
    [first, second].map(async (tracker, which) => {
      const hashes: Array<string | undefined> = [];
      for (let step = 0; step < 8; step += 1) {
        const path = join(folders.workspace, `src/file-${which * 10 + step}.txt`);
        await writeFile(path, `changed by task ${which} in step ${step}\n`);
        hashes.push(await tracker.commit({ taskId: which === 0 ? "a" : "b", reason: "turn" }, step % 2 === 0 ? { paths: [path] } : {}));
      }
      return hashes;
    }),
  );
  const log = execFileSync("git", ["--git-dir", first.gitDir, "log", "--format=%H", "HEAD"], { encoding: "utf8" }).trim().split("\n");
  for (const hash of made.flat()) expect(log).toContain(hash);
});

it("takes over a lock left by a cairn that died, and leaves none behind", async () => {
  await writeFiles(folders.workspace, { "a.txt": "a\n" });
  const tracker = new CheckpointTracker({ workspace: folders.workspace, dataDir: folders.dataDir });
  await tracker.init();
  const dead = spawnSync(process.execPath, ["-e", "0"]).pid;
  await writeFile(join(tracker.gitDir, shadowLockName), JSON.stringify({ pid: dead, host: hostname(), token: "left behind" }));
  expect(await tracker.commit({ taskId: "t", reason: "initial" })).toMatch(/^[0-9a-f]{40}$/);
  await expect(access(join(tracker.gitDir, shadowLockName))).rejects.toThrow();
});

it("says which process holds the checkpoints when it holds them too long", async () => {
  const lock = join(folders.dataDir, shadowLockName);
  let release: () => void = () => undefined;
  const held = withShadowLock(lock, () => new Promise<void>((resolve) => (release = resolve)));
  await expect(withShadowLock(lock, async () => "ran", { waitMs: 150 })).rejects.toThrow(new RegExp(`another cairn process \\(pid ${process.pid}\\) .*try again`));
  release();
  await held;
  expect(await withShadowLock(lock, async () => "ran")).toBe("ran");
});
