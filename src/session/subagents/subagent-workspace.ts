/**
 * Isolation of a writing subagent (issue #17): its own git worktree of the
 * workspace, on a branch named after the parent task and the subagent, in
 * cairn's data folder (a copy for a workspace that is not a git repository).
 * It starts from the workspace as it is now (uncommitted and untracked files
 * included); when the child ends, its changes are a diff against that start,
 * which is merged into the workspace's working tree (uncommitted) only on
 * approval, refused whole when it does not apply (nothing overwritten
 * silently). The repository's own hooks never run for cairn's git commands.
 */
import { existsSync, statSync } from "node:fs";
import { cp, mkdir, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { userGit, type UserGitOutput } from "../../security/user-git.js";

/** The workspace guard's ignore files (src/tools/workspace-guard.ts). */
const ignoreFileNames = [".cairnignore", ".clineignore"];

/** No signing, an identity: cairn's commits work anywhere (hooks are off in every user git call). */
const gitOptions = ["-c", "commit.gpgsign=false", "-c", "user.name=cairn", "-c", "user.email=cairn@localhost", "-c", "core.autocrlf=false"];

const git = (cwd: string, args: string[], input?: string): Promise<UserGitOutput> => userGit(cwd, [...gitOptions, ...args], input);

async function gitOk(cwd: string, args: string[], input?: string): Promise<string> {
  const result = await git(cwd, args, input);
  if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr.trim() || result.stdout.trim()}`);
  return result.stdout;
}

export type MergeResult = { kind: "merged"; files: string[] } | { kind: "conflict"; message: string } | { kind: "empty" };

export interface IsolatedWorkspace {
  /** Where the child works (the worktree, or the copy; the same sub-folder as the workspace). */
  readonly cwd: string;
  readonly kind: "worktree" | "copy";
  /** The branch holding the child's work (worktree only). */
  readonly branch: string | undefined;
  /** Commits the child's work on its branch and returns the diff against its start. */
  finish(): Promise<{ diff: string; files: string[] }>;
  /** Applies the diff to the workspace's working tree, or refuses it whole. */
  merge(diff: string): Promise<MergeResult>;
  /** Removes the worktree (or copy) and its branch. */
  remove(): Promise<void>;
}

export async function createIsolatedWorkspace(options: {
  workspace: string;
  dataDir: string;
  parentTaskId: string;
  subagentId: string;
  /** A resumed subagent: its worktree (or copy) from before is used again when it is still there. */
  reuse?: boolean;
}): Promise<IsolatedWorkspace> {
  const folder = join(options.dataDir, "worktrees", options.parentTaskId, options.subagentId);
  if (options.reuse === true && existsSync(join(folder, ".git"))) {
    const reattached = await reattach({ ...options, folder });
    if (reattached !== undefined) return reattached;
  }
  await rm(folder, { recursive: true, force: true });
  await mkdir(join(options.dataDir, "worktrees", options.parentTaskId), { recursive: true });
  const top = await git(options.workspace, ["rev-parse", "--show-toplevel"]);
  const head = top.exitCode === 0 ? await git(options.workspace, ["rev-parse", "--verify", "HEAD"]) : undefined;
  if (top.exitCode === 0 && head?.exitCode === 0) {
    return worktree({ ...options, folder, root: top.stdout.trim() });
  }
  return copy({ ...options, folder });
}

async function commitAll(cwd: string, message: string): Promise<string> {
  await gitOk(cwd, ["add", "-A"]);
  await gitOk(cwd, ["commit", "-q", "--allow-empty", "--no-verify", "-m", message]);
  return (await gitOk(cwd, ["rev-parse", "HEAD"])).trim();
}

async function changes(cwd: string, base: string, message: string): Promise<{ diff: string; files: string[] }> {
  await gitOk(cwd, ["add", "-A"]);
  const diff = await gitOk(cwd, ["diff", "--cached", "--binary", base]);
  const files = (await gitOk(cwd, ["diff", "--cached", "--name-only", base])).split("\n").filter((line) => line !== "");
  // Committed on its branch (a resumed subagent may have committed part of it before).
  if ((await gitOk(cwd, ["status", "--porcelain"])).trim() !== "") await gitOk(cwd, ["commit", "-q", "--no-verify", "-m", message]);
  return { diff, files };
}

async function mergeInto(root: string, diff: string): Promise<MergeResult> {
  if (diff.trim() === "") return { kind: "empty" };
  const check = await git(root, ["apply", "--check", "--binary", "-"], diff);
  if (check.exitCode !== 0) {
    return { kind: "conflict", message: `the subagent's changes do not apply to the workspace as it is now (nothing was changed):\n${check.stderr.trim()}` };
  }
  await gitOk(root, ["apply", "--binary", "-"], diff);
  const files = [...diff.matchAll(/^diff --git a\/(\S+) b\//gm)].map((match) => match[1] ?? "");
  return { kind: "merged", files };
}

async function worktree(options: { workspace: string; folder: string; root: string; parentTaskId: string; subagentId: string }): Promise<IsolatedWorkspace> {
  const { root, folder } = options;
  const branch = `cairn/${options.parentTaskId}/${options.subagentId}`;
  await gitOk(root, ["worktree", "add", "-q", "-b", branch, folder, "HEAD"]);
  // The child starts from the workspace as it is: uncommitted changes and untracked files too.
  const uncommitted = await gitOk(root, ["diff", "HEAD", "--binary"]);
  if (uncommitted.trim() !== "") await gitOk(folder, ["apply", "--binary", "-"], uncommitted);
  const untracked = (await gitOk(root, ["ls-files", "--others", "--exclude-standard", "-z"])).split("\0").filter((path) => path !== "");
  for (const path of untracked) await cp(join(root, path), join(folder, path), { recursive: true, force: true });
  // The ignore files hold in the worktree too, even when git ignores them (they never reach the diff then).
  for (const name of ignoreFileNames) {
    const source = join(options.workspace, name);
    if (existsSync(source)) await cp(source, join(folder, relative(root, options.workspace), name), { force: true });
  }
  const base = await commitAll(folder, `cairn: the workspace when subagent ${options.subagentId} started`);
  const cwd = join(folder, relative(root, options.workspace));
  return {
    cwd,
    kind: "worktree",
    branch,
    finish: () => changes(folder, base, `cairn: subagent ${options.subagentId}`),
    merge: (diff) => mergeInto(root, diff),
    remove: async () => {
      await git(root, ["worktree", "remove", "--force", folder]);
      await git(root, ["branch", "-D", branch]);
      await rm(folder, { recursive: true, force: true });
    },
  };
}

async function copy(options: { workspace: string; folder: string; subagentId: string }): Promise<IsolatedWorkspace> {
  const { folder } = options;
  await cp(options.workspace, folder, { recursive: true, filter: (source) => !source.split(/[\\/]/).includes(".git") });
  await gitOk(folder, ["init", "-q"]);
  const base = await commitAll(folder, `cairn: the workspace when subagent ${options.subagentId} started`);
  return {
    cwd: folder,
    kind: "copy",
    branch: undefined,
    finish: () => changes(folder, base, `cairn: subagent ${options.subagentId}`),
    // Outside a repository, git apply works as patch does, relative to the workspace.
    merge: (diff) => mergeInto(options.workspace, diff),
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}

/** The worktree (or copy) of an interrupted subagent, with the commit it started from. */
async function reattach(options: { workspace: string; folder: string; subagentId: string; parentTaskId: string }): Promise<IsolatedWorkspace | undefined> {
  const { folder } = options;
  const start = `cairn: the workspace when subagent ${options.subagentId} started`;
  const base = (await git(folder, ["log", "--format=%H", "-1", "--fixed-strings", `--grep=${start}`])).stdout.trim();
  if (base === "") return undefined;
  const message = `cairn: subagent ${options.subagentId}`;
  if (statSync(join(folder, ".git")).isFile()) {
    const root = (await gitOk(options.workspace, ["rev-parse", "--show-toplevel"])).trim();
    const branch = `cairn/${options.parentTaskId}/${options.subagentId}`;
    return {
      cwd: join(folder, relative(root, options.workspace)),
      kind: "worktree",
      branch,
      finish: () => changes(folder, base, message),
      merge: (diff) => mergeInto(root, diff),
      remove: async () => {
        await git(root, ["worktree", "remove", "--force", folder]);
        await git(root, ["branch", "-D", branch]);
        await rm(folder, { recursive: true, force: true });
      },
    };
  }
  return { cwd: folder, kind: "copy", branch: undefined, finish: () => changes(folder, base, message), merge: (diff) => mergeInto(options.workspace, diff), remove: () => rm(folder, { recursive: true, force: true }) };
}
