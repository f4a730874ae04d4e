/**
 * The job's workspace: a fresh clone at the base revision, and its patch
 * against that revision (new files included) as `git diff --binary` writes it.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Git runs without the user's or the system's config, so no hook or alias of theirs runs on a job's repository. */
function gitEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: process.env["GIT_AUTHOR_NAME"] ?? "cairn",
    GIT_AUTHOR_EMAIL: process.env["GIT_AUTHOR_EMAIL"] ?? "cairn@localhost",
    GIT_COMMITTER_NAME: process.env["GIT_COMMITTER_NAME"] ?? "cairn",
    GIT_COMMITTER_EMAIL: process.env["GIT_COMMITTER_EMAIL"] ?? "cairn@localhost",
    ...extra,
  };
}

export async function git(cwd: string, args: string[], options: { env?: Record<string, string> } = {}): Promise<string> {
  try {
    const { stdout } = await execFileAsync("git", args, { cwd, env: gitEnvironment(options.env), maxBuffer: 256 * 1024 * 1024, encoding: "utf8" });
    return stdout;
  } catch (error) {
    const failure = error as { stderr?: string; message: string };
    throw new Error(`git ${args[0] ?? ""} failed: ${(failure.stderr ?? failure.message).trim()}`, { cause: error });
  }
}

/** A local path is made absolute (workers may start elsewhere); URLs are kept. */
export function normalizeRepository(repo: string, cwd: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repo) || /^[^/\\]+@[^:]+:/.test(repo)) return repo;
  return isAbsolute(repo) ? repo : resolve(cwd, repo);
}

/** The commit a ref names in a repository (for `queue add`: every attempt starts from the same commit). */
export async function resolveRevision(repo: string, ref: string): Promise<string> {
  const isLocal = !/^[a-z][a-z0-9+.-]*:\/\//i.test(repo) && !/^[^/\\]+@[^:]+:/.test(repo);
  if (isLocal) {
    const info = await stat(repo).catch(() => undefined);
    if (!info?.isDirectory()) throw new Error(`${repo}: no such repository folder`);
    return (await git(repo, ["rev-parse", "--verify", `${ref}^{commit}`])).trim();
  }
  const listing = await git(process.cwd(), ["ls-remote", repo, ref]);
  const line = listing.split("\n").find((entry) => entry.trim() !== "");
  if (line !== undefined) return line.split(/\s+/)[0] ?? "";
  if (/^[0-9a-f]{40}$/.test(ref)) return ref;
  throw new Error(`${repo} has no ref "${ref}"`);
}

export interface Workspace {
  path: string;
  baseRevision: string;
  remove(): Promise<void>;
}

/** Clones `repo` and checks out `revision` (detached) in a new temporary folder. */
export async function cloneWorkspace(options: { repo: string; revision: string; parent?: string }): Promise<Workspace> {
  const root = await mkdtemp(join(options.parent ?? tmpdir(), "cairn-job-"));
  const path = join(root, "workspace");
  const remove = (): Promise<void> => rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  try {
    await git(root, ["clone", "--quiet", "--no-checkout", options.repo, path]);
    await git(path, ["checkout", "--quiet", "--detach", options.revision]);
    const baseRevision = (await git(path, ["rev-parse", "HEAD"])).trim();
    return { path, baseRevision, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/**
 * `git diff --binary` of everything in the workspace (untracked files too)
 * against the base revision, through a private index so the workspace's own
 * index is never touched. Synchronous on purpose: the fleet takes it at a step
 * boundary, before the next request goes out, so the stored patch and the
 * mirrored log always describe the same moment.
 */
export function workspacePatchSync(workspace: string, baseRevision: string): string {
  const indexFile = join(workspace, ".git", "cairn-fleet-index");
  const env = gitEnvironment({ GIT_INDEX_FILE: indexFile });
  const run = (args: string[]): string => execFileSync("git", args, { cwd: workspace, env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] });
  // The private index is kept between steps: `add --all` then only looks at what changed.
  if (!existsSync(indexFile)) run(["read-tree", baseRevision]);
  run(["add", "--all", "--", "."]);
  return run(["diff", "--cached", "--binary", "--no-color", "--no-ext-diff", baseRevision]);
}

export async function workspacePatch(workspace: string, baseRevision: string): Promise<string> {
  const indexFile = join(workspace, ".git", "cairn-fleet-index");
  const env = { GIT_INDEX_FILE: indexFile };
  await git(workspace, ["read-tree", baseRevision], { env });
  await git(workspace, ["add", "--all", "--", "."], { env });
  return git(workspace, ["diff", "--cached", "--binary", "--no-color", "--no-ext-diff", baseRevision], { env });
}

/** Applies a stored patch to a fresh clone (a takeover continues where the dead worker's last step ended). */
export async function applyPatch(workspace: string, patch: string): Promise<void> {
  if (patch.trim() === "") return;
  const file = join(workspace, ".git", "cairn-fleet-resume.patch");
  await writeFile(file, patch);
  await git(workspace, ["apply", "--binary", "--whitespace=nowarn", file]);
  await rm(file, { force: true });
}

/** Commits the workspace and pushes it to `branch` of the job's repository. */
export async function pushBranch(options: { workspace: string; branch: string; message: string }): Promise<string> {
  const branch = options.branch.startsWith("cairn/") ? options.branch : `cairn/${options.branch}`;
  await git(options.workspace, ["add", "--all", "--", "."]);
  await git(options.workspace, ["commit", "--quiet", "--allow-empty", "--no-verify", "-m", options.message]);
  await git(options.workspace, ["push", "--quiet", "origin", `HEAD:refs/heads/${branch}`]);
  return branch;
}
