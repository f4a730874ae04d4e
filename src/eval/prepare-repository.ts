/**
 * A case's repository as a commit: a git repository or URL is used as it is;
 * a plain folder (the bundled samples) is copied into a temporary repository
 * with one commit, so every case starts from a revision like any other job.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

export interface PreparedRepositories {
  /** The repository to clone for `repo`. */
  resolve(repo: string): Promise<string>;
  remove(): Promise<void>;
}

async function isGitRepository(path: string): Promise<boolean> {
  return (await stat(join(path, ".git")).catch(() => undefined)) !== undefined;
}

export function prepareRepositories(): PreparedRepositories {
  const made = new Map<string, Promise<string>>();
  let root: Promise<string> | undefined;
  return {
    resolve: (repo) => {
      const known = made.get(repo);
      if (known) return known;
      const created = (async () => {
        if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repo) || (await isGitRepository(repo))) return repo;
        const info = await stat(repo).catch(() => undefined);
        if (!info?.isDirectory()) throw new Error(`${repo}: no such repository or folder`);
        root ??= mkdtemp(join(tmpdir(), "cairn-eval-repos-"));
        const target = join(await root, String(made.size));
        await cp(repo, target, { recursive: true });
        const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "cairn", GIT_AUTHOR_EMAIL: "cairn@localhost", GIT_COMMITTER_NAME: "cairn", GIT_COMMITTER_EMAIL: "cairn@localhost" };
        await execFileAsync("git", ["init", "-q"], { cwd: target, env });
        await execFileAsync("git", ["add", "-A"], { cwd: target, env });
        await execFileAsync("git", ["commit", "-qm", "eval base"], { cwd: target, env });
        return target;
      })();
      made.set(repo, created);
      return created;
    },
    remove: async () => {
      if (root) await rm(await root, { recursive: true, force: true });
    },
  };
}
