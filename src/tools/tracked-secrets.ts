/**
 * Files the ignore file hides, or credential files, that git tracks: their
 * content is in git's objects, where `git show HEAD:secret.env` or a program
 * reading `.git/objects` would find it. The sandbox hides git's objects in
 * such a workspace. Read again when git's index or the ignore files change.
 */
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import { isCredentialPath } from "../security/sensitive-paths.js";
import type { WorkspaceGuard } from "./workspace-guard.js";

function stamp(paths: string[]): string {
  return paths
    .map((path) => {
      try {
        const stats = statSync(path, { throwIfNoEntry: false });
        return stats === undefined ? "-" : `${stats.mtimeMs}:${stats.size}`;
      } catch {
        return "-";
      }
    })
    .join("|");
}

export interface TrackedSecretFiles {
  /** The repository's git folder (it may be above the workspace). */
  gitDir: string | undefined;
  /** Tracked files, relative to the workspace, that must not be read. */
  files: string[];
}

export class TrackedSecrets {
  private cache: ({ stamp: string } & TrackedSecretFiles) | undefined;
  private gitDir: string | undefined | null = null;

  constructor(
    private readonly guard: WorkspaceGuard,
    private readonly userConfigDir: string,
  ) {}

  private findGitDir(): string | undefined {
    if (this.gitDir !== null && this.gitDir !== undefined) return this.gitDir;
    const result = spawnSync("git", ["rev-parse", "--absolute-git-dir"], { cwd: this.guard.root, encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "ignore"] });
    this.gitDir = result.status === 0 ? result.stdout.trim() || undefined : undefined;
    return this.gitDir;
  }

  /** The tracked files that must not be read (none without a repository), and where git keeps their content. */
  find(): TrackedSecretFiles {
    const root = this.guard.root;
    const gitDir = this.findGitDir();
    if (gitDir === undefined) return { gitDir, files: [] };
    const current = stamp([join(gitDir, "index"), join(root, ".cairnignore"), join(root, ".clineignore")]);
    if (this.cache?.stamp === current) return this.cache;
    let files: string[] = [];
    const result = spawnSync("git", ["ls-files", "-z", "--cached"], { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, timeout: 30_000, stdio: ["ignore", "pipe", "ignore"] });
    if (result.status === 0) {
      const guard = this.guard.snapshot();
      files = result.stdout.split("\0").filter((path) => path !== "" && (guard.isIgnoredEntry(join(root, path), false) || isCredentialPath(join(root, path), this.userConfigDir)));
    }
    this.cache = { stamp: current, gitDir, files };
    return this.cache;
  }
}
