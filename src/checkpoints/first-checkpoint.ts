import { lstat, rm } from "node:fs/promises";
import { join } from "node:path";
import { startLocalizing } from "./borrowed-objects.js";
import { commitFirstPaths, indexBehindMarker } from "./direct-commit.js";
import { runGit } from "./git.js";
import { findUserRepository, stampOf, type SeededIndex } from "./seed-index.js";
import { classifyUntracked, readOwnExclusions, writeOwnExclusions, type ShadowRepository } from "./staging.js";
import { readUserChanges, userExcludesPatterns, type UserChanges } from "./user-status.js";

/** Beyond this many changed paths the index way is as good (as for later checkpoints, tracker.ts). */
const maxPaths = 500;

/**
 * The first checkpoint of a new shadow repository built from what the user's git already
 * holds (issue 33), instead of a `git status`, `update-index` and `write-tree` over the
 * seeded 4.4 MB shadow index: the user's own `git status`, run read-only over the user's
 * index with the shadow's rules (user-status.ts), names the few paths that differ from
 * that index, and the index's tree (its cache-tree extension, else `git write-tree` of
 * the seeded copy) is the base they are written on (direct-commit.ts). The shadow index stays the user's copy, marked behind
 * HEAD, so the next scan brings it in step as after any direct commit. The borrowed
 * objects are then copied in the background, as after the index way (borrowed-objects.ts).
 *
 * Undefined, having committed nothing, wherever the answer could differ from the index
 * way's: the seed is not the user's index whole, the user's
 * info/exclude has patterns, a conflict, submodule or nested repository, a tree the
 * shadow cannot read, the user's index changed meanwhile, too many paths, or anything
 * `commitFirstPaths` will not record exactly. The caller then takes the index way.
 */
export async function commitFirstFromUserGit(
  repository: ShadowRepository,
  seed: SeededIndex,
  options: { message: string; reflogMessage: string; git: (args: string[]) => Promise<unknown>; early?: EarlyUserStatus | undefined },
): Promise<{ commit: string; tree: string } | undefined> {
  if (!seed.whole || (await userExcludesPatterns(seed.user.commonDir))) return undefined;
  // Started before the seed was read: its answer is about the seed's index only if that index was already there then.
  const userChanges = options.early?.indexStamp === seed.indexStamp ? options.early.changes : readUserChanges(repository.workTree, repository.defaultExcludesFile, repository.signal);
  const [changes, baseTree] = await Promise.all([userChanges, indexTree(repository, seed.treeIds)]);
  if (changes === undefined || baseTree === undefined) return undefined;
  // A `git add` of the user's since the seed was read: the status is not about the base tree.
  const now = await lstat(join(seed.user.gitDir, "index")).catch(() => undefined);
  if (now === undefined || stampOf(now) !== seed.indexStamp) return undefined;

  const exclusions = await readOwnExclusions(repository);
  if (exclusions.stale || exclusions.nested.size > 0) return undefined;
  const largeBefore = exclusions.large.size;
  const { files, newNested } = await classifyUntracked(repository, changes.untracked, exclusions);
  if (newNested) return undefined;
  const paths = [...new Set([...changes.tracked, ...files])];
  if (paths.length > maxPaths) return undefined;
  // Large new files stay out, named in info/exclude as the index way names them.
  if (exclusions.large.size !== largeBefore) await writeOwnExclusions(exclusions, repository.gitDir);
  try {
    const result = await commitFirstPaths(repository, baseTree, paths, options);
    if (result.kind !== "committed") return undefined;
    await startLocalizing(repository.gitDir);
    return { commit: result.commit, tree: result.tree };
  } catch (error) {
    await rm(join(repository.gitDir, indexBehindMarker), { force: true });
    if (repository.signal?.aborted === true) throw error;
    return undefined;
  }
}

/** The user's `git status` started early, and their index's stamp (`stampOf`) read just before it started. */
export interface EarlyUserStatus {
  indexStamp: string;
  changes: Promise<UserChanges | undefined>;
}

/**
 * Starts the user's `git status` for a new shadow repository's first checkpoint as soon as
 * its excludes file is written, so that it runs beside `git init` and the seeding instead
 * of after them (on a large repository, the first checkpoint is what a task's first write
 * waits for). The answer is used only where the user's index is the same file from before
 * the status started until after it ended (`commitFirstFromUserGit`). Undefined where no
 * first checkpoint from the user's git could use it.
 */
export async function startUserStatus(workTree: string, excludesFile: string, signal?: AbortSignal): Promise<EarlyUserStatus | undefined> {
  const user = await findUserRepository(workTree);
  if (user === undefined || (await userExcludesPatterns(user.commonDir))) return undefined;
  const before = await lstat(join(user.gitDir, "index")).catch(() => undefined);
  if (before === undefined) return undefined;
  return { indexStamp: stampOf(before), changes: readUserChanges(workTree, excludesFile, signal) };
}

/**
 * The tree of the seeded index (the user's, whole): the one its cache-tree extension names
 * when the shadow reads every tree named there (through the alternate), else `git
 * write-tree` of the seeded shadow index (it writes what trees are missing).
 */
async function indexTree(repository: ShadowRepository, ids: readonly string[]): Promise<string | undefined> {
  const signal = repository.signal === undefined ? {} : { signal: repository.signal };
  const call = { gitDir: repository.gitDir, workTree: repository.workTree, ...signal };
  if (ids.length > 0) {
    const check = await runGit({ ...call, args: ["cat-file", "--batch-check=%(objecttype)"], input: `${ids.join("\n")}\n` }).catch(() => undefined);
    const lines = check?.stdout.trimEnd().split("\n") ?? [];
    if (lines.length === ids.length && lines.every((line) => line === "tree")) return ids[0];
  }
  const written = await runGit({ ...call, args: ["write-tree"] }).catch(() => undefined);
  return /^[0-9a-f]{40}$/.exec(written?.stdout.trim() ?? "")?.[0];
}
