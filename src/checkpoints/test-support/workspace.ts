import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterEach, beforeEach } from "vitest";

export async function temporaryFolder(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

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
      else result[relative(root, path)] = createHash("sha1").update(await readFile(path)).digest("hex");
    }
  }
  await walk(root);
  return result;
}

/** A real git repository with one commit, made with an explicit identity. */
export function initUserRepository(root: string): void {
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=User", "-c", "user.email=user@example.com", ...args], { cwd: root, stdio: "ignore" });
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

/** Registers the hooks in the calling test file: a fresh workspace and data folder for each test, removed after it. */
export function useCheckpointFolders(options: { prepare?: (workspace: string) => Promise<void> } = {}): CheckpointFolders {
  let current: { workspace: { path: string; remove(): Promise<void> }; data: { path: string; remove(): Promise<void> } } | undefined;
  beforeEach(async () => {
    current = { workspace: await temporaryFolder("cairn-ws-"), data: await temporaryFolder("cairn-data-") };
    await options.prepare?.(current.workspace.path);
  });
  afterEach(async () => {
    await current?.workspace.remove();
    await current?.data.remove();
    current = undefined;
  });
  const active = (): NonNullable<typeof current> => {
    if (current === undefined) throw new Error("the folders exist only while a test runs");
    return current;
  };
  return {
    get workspace() {
      return active().workspace.path;
    },
    get dataDir() {
      return active().data.path;
    },
  };
}
