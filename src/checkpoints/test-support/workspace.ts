import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readFile, readdir, readlink, stat, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { dirname, join, relative } from "node:path";
import { temporaryFolder } from "../../test-support/temporary-folder.js";
import { usePerTest } from "../../test-support/per-test.js";
import { localizerRunning } from "../borrowed-objects.js";

/** Writes files given as { "relative/path": "content" }. */
export async function writeFiles(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/** Every file under `root` with a hash of its content: to prove a folder was not touched. */
export async function fingerprint(root: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  async function walk(folder: string): Promise<void> {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else
        result[relative(root, path)] = createHash("sha1")
          .update(await readFile(path))
          .digest("hex");
    }
  }
  await walk(root);
  return result;
}

/**
 * The workspace as a restore must bring it back: every file (its content, base64, and
 * an "x " mark for the execute bit) and symlink (its target) under `root`, `.git` folders left out.
 */
export async function workspaceFiles(root: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  async function walk(folder: string): Promise<void> {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.name === ".git") continue;
      if (entry.isSymbolicLink()) result[relative(root, path)] = `-> ${await readlink(path)}`;
      else if (entry.isDirectory()) await walk(path);
      else result[relative(root, path)] = `${((await stat(path)).mode & 0o111) !== 0 ? "x " : ""}${(await readFile(path)).toString("base64")}`;
    }
  }
  await walk(root);
  return result;
}

/** A real git repository with one commit, made with an explicit identity. */
export function initUserRepository(root: string): void {
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=User", "-c", "user.email=user@example.com", ...args], { cwd: root, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "user commit");
}

export async function readText(path: string): Promise<string | undefined> {
  return readFile(path, "utf8").catch(() => undefined);
}

export interface CheckpointFolders {
  /** This test's workspace folder. */
  readonly workspace: string;
  /** This test's data folder (where the shadow repositories go). */
  readonly dataDir: string;
}

/**
 * Until the background copies of borrowed objects (borrowed-objects.ts) started in `dataDir`
 * have ended: they outlive the test that started them, and removing a folder one still writes
 * into fails (ENOTEMPTY).
 */
async function localCopiesEnded(dataDir: string, timeoutMs = 30_000): Promise<void> {
  const shadows = join(dataDir, "checkpoints");
  const deadline = Date.now() + timeoutMs;
  for (const shadow of await readdir(shadows).catch(() => [])) {
    while (Date.now() < deadline && (await localizerRunning(join(shadows, shadow, ".git")))) await sleep(50);
  }
}

/** Registers the hooks in the calling test file: a fresh workspace and data folder for each test, removed after it. */
export function useCheckpointFolders(options: { prepare?: (workspace: string) => Promise<void> } = {}): CheckpointFolders {
  const folders = usePerTest(
    "the folders",
    async () => {
      const made = { workspace: await temporaryFolder("cairn-ws-"), data: await temporaryFolder("cairn-data-") };
      await options.prepare?.(made.workspace.path);
      return made;
    },
    async ({ workspace, data }) => {
      await localCopiesEnded(data.path);
      await workspace.remove();
      await data.remove();
    },
  );
  return {
    get workspace() {
      return folders().workspace.path;
    },
    get dataDir() {
      return folders().data.path;
    },
  };
}
