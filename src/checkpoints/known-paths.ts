import { lstat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { runGit } from "./git.js";
import { readOwnExclusions, type ShadowRepository } from "./staging.js";

const exists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** What `git add` says (exit 1) when a path it was given is ignored; the other paths are added all the same. */
const ignoredPathsMessage = "ignored by one of your .gitignore files";

/**
 * Stages exactly the files a turn's tools named (issue 33): `git add -A` for those paths
 * only, so git stats and hashes them and nothing else, and honours the same ignore
 * rules as a full staging (an ignored path stays out, a tracked one is updated). The
 * shadow index otherwise already holds the workspace as the last checkpoint saw it.
 *
 * Returns false, having staged nothing, where a path's change can reach beyond itself
 * or where a full staging would treat it specially: a `.gitignore` (other files'
 * status changes), anything under a `.git` folder or inside a nested repository, a
 * path that is not a regular file or symlink now (deleted, a folder), a file over the
 * size limit, and any nested repository or stale exclusion known from before. The
 * caller then stages the whole workspace.
 */
export async function stageKnownPaths(repository: ShadowRepository, absolutePaths: readonly string[]): Promise<boolean> {
  const paths: string[] = [];
  for (const absolute of absolutePaths) {
    const path = relative(repository.workTree, absolute);
    // Outside the workspace: a full staging would not record it either.
    if (path === "" || path === ".." || path.startsWith(`..${sep}`) || isAbsolute(path)) continue;
    const parts = path.split(sep);
    if (parts.includes(".git") || parts.at(-1) === ".gitignore") return false;
    const info = await lstat(absolute).catch(() => undefined);
    if (info === undefined || !(info.isFile() || info.isSymbolicLink())) return false;
    if (info.isFile() && info.size > repository.maxFileBytes) return false;
    for (let folder = dirname(path); folder !== "." && folder !== ""; folder = dirname(folder)) {
      if (await exists(join(repository.workTree, folder, ".git"))) return false;
    }
    paths.push(parts.join("/"));
  }
  const exclusions = await readOwnExclusions(repository);
  if (exclusions.stale || exclusions.nested.size > 0) return false;
  if (paths.length === 0) return true;
  const result = await runGit({
    gitDir: repository.gitDir,
    workTree: repository.workTree,
    args: ["add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"],
    input: `${paths.join("\0")}\0`,
    allowExitCodes: [1],
    ...(repository.signal === undefined ? {} : { signal: repository.signal }),
  });
  if (result.exitCode === 1 && !result.stderr.includes(ignoredPathsMessage)) throw new Error(`git add failed (exit 1): ${result.stderr.trim()}`);
  return true;
}
