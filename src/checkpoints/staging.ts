import { lstat, readFile, writeFile, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { runGit } from "./git.js";
import { indexBehindMarker } from "./direct-commit.js";

export interface ShadowRepository {
  gitDir: string;
  workTree: string;
  /** Files larger than this stay out of checkpoints. */
  maxFileBytes: number;
  /** The default exclude patterns (node_modules, dist, ...), as a file. */
  defaultExcludesFile: string;
  signal?: AbortSignal;
}

/** The paths this module writes into info/exclude, between markers so the rest of the file is left alone. */
const beginMarker = "# cairn: nested repositories and large files (rewritten on every checkpoint)";

/** Makes a workspace-relative path an exact, anchored ignore pattern. */
export function literalPattern(path: string, directory: boolean): string {
  const escaped = path.replace(/[\\*?[\]!#]/g, (character) => `\\${character}`).replace(/ $/, "\\ ");
  return `/${escaped}${directory ? "/" : ""}`;
}

function unescapePattern(pattern: string): { path: string; directory: boolean } {
  const directory = pattern.endsWith("/");
  const body = pattern.slice(1, directory ? -1 : undefined);
  return { path: body.replace(/\\(.)/g, "$1"), directory };
}

async function isNestedRepository(path: string): Promise<boolean> {
  try {
    await lstat(join(path, ".git"));
    return true;
  } catch {
    return false;
  }
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    const info = await lstat(path);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

function splitNul(text: string): string[] {
  return text.split("\0").filter((entry) => entry !== "");
}

/**
 * Lists the untracked, not ignored files under `root` (a nested repository), as the
 * shadow repository would see them if git did not stop at the nested `.git`. A
 * throwaway index makes every file untracked; the nested `.git` is never opened.
 */
async function nestedRepositoryFiles(repository: ShadowRepository, prefix: string): Promise<string[]> {
  const temporaryIndex = join(repository.gitDir, `cairn-nested-${randomBytes(4).toString("hex")}.index`);
  try {
    const listing = await runGit({
      gitDir: repository.gitDir,
      workTree: join(repository.workTree, prefix),
      args: ["ls-files", "-z", "--others", `--exclude-from=${repository.defaultExcludesFile}`, "--exclude-per-directory=.gitignore"],
      env: { GIT_INDEX_FILE: temporaryIndex },
      ...(repository.signal === undefined ? {} : { signal: repository.signal }),
    });
    const files: string[] = [];
    for (const entry of splitNul(listing.stdout)) {
      const path = `${prefix}${entry}`;
      if (entry.endsWith("/")) {
        if (await isNestedRepository(join(repository.workTree, path))) files.push(...(await nestedRepositoryFiles(repository, path)));
        continue;
      }
      const size = await sizeOf(join(repository.workTree, path));
      if (size === undefined || size <= repository.maxFileBytes) files.push(path);
    }
    return files;
  } finally {
    await rm(temporaryIndex, { force: true });
  }
}

/** The nested repositories and large files named in info/exclude by an earlier checkpoint. */
export interface OwnExclusions {
  excludePath: string;
  /** The rest of info/exclude, kept as the user left it. */
  userPart: string;
  /** Nested repositories (with a trailing slash) and large files that still are. */
  nested: Set<string>;
  large: Set<string>;
  /** Some earlier entry no longer applies (a file shrank, a nested repository went away). */
  stale: boolean;
}

export async function readOwnExclusions(repository: ShadowRepository): Promise<OwnExclusions> {
  const excludePath = join(repository.gitDir, "info", "exclude");
  const previous = await readFile(excludePath, "utf8").catch(() => "");
  const markerAt = previous.indexOf(beginMarker);
  const userPart = markerAt === -1 ? previous : previous.slice(0, markerAt);
  const ourLines =
    markerAt === -1
      ? []
      : previous
          .slice(markerAt)
          .split("\n")
          .slice(1)
          .filter((line) => line.startsWith("/"));
  // Keep earlier entries that still apply (a large file stays large, a nested repo stays one).
  const nested = new Set<string>();
  const large = new Set<string>();
  let stale = false;
  for (const line of ourLines) {
    const { path, directory } = unescapePattern(line);
    const absolute = join(repository.workTree, path);
    if (directory && (await isNestedRepository(absolute))) nested.add(`${path}/`);
    else if (!directory && ((await sizeOf(absolute)) ?? 0) > repository.maxFileBytes) large.add(path);
    else stale = true;
  }
  return { excludePath, userPart, nested, large, stale };
}

export async function writeOwnExclusions(exclusions: OwnExclusions, gitDir: string): Promise<void> {
  const patterns = [...[...exclusions.nested].sort().map((path) => literalPattern(path.slice(0, -1), true)), ...[...exclusions.large].sort().map((path) => literalPattern(path, false))];
  const { userPart } = exclusions;
  await mkdir(join(gitDir, "info"), { recursive: true });
  await writeFile(exclusions.excludePath, `${userPart.trimEnd()}${userPart.trim() === "" ? "" : "\n"}${beginMarker}\n${patterns.join("\n")}\n`);
}

/**
 * Sorts untracked entries as `ls-files --others` or `status -uall` list them: a
 * nested repository (an entry ending in "/") or a large file is excluded, the
 * rest is returned to be added. Returns whether a new nested repository appeared.
 */
export async function classifyUntracked(repository: ShadowRepository, entries: string[], exclusions: OwnExclusions): Promise<{ files: string[]; newNested: boolean }> {
  const files: string[] = [];
  let newNested = false;
  for (const entry of entries) {
    const absolute = join(repository.workTree, entry);
    if (entry.endsWith("/")) {
      if (await isNestedRepository(absolute)) {
        exclusions.nested.add(entry);
        newNested = true;
      }
    } else if (((await sizeOf(absolute)) ?? 0) > repository.maxFileBytes) {
      exclusions.large.add(entry);
    } else {
      files.push(entry);
    }
  }
  return { files, newNested };
}

/**
 * Brings the shadow index up to the workspace as it is now: `git add -A` for the
 * workspace (which honours its .gitignore files and the default excludes), with
 * nested repositories and large files kept out by exact patterns in info/exclude, and
 * the files inside nested repositories added one by one, so their `.git` folders
 * are never touched, renamed or recorded.
 */
export async function stageWorkspace(repository: ShadowRepository): Promise<void> {
  const signalOption = repository.signal === undefined ? {} : { signal: repository.signal };
  const exclusions = await readOwnExclusions(repository);
  const untracked = await runGit({
    gitDir: repository.gitDir,
    workTree: repository.workTree,
    args: ["ls-files", "-z", "--others", "--exclude-standard"],
    ...signalOption,
  });
  await classifyUntracked(repository, splitNul(untracked.stdout), exclusions);
  await writeOwnExclusions(exclusions, repository.gitDir);

  await runGit({ gitDir: repository.gitDir, workTree: repository.workTree, args: ["add", "-A", "--", "."], ...signalOption });

  const nestedFiles: string[] = [];
  for (const path of [...exclusions.nested].sort()) nestedFiles.push(...(await nestedRepositoryFiles(repository, path)));
  if (nestedFiles.length > 0) await addPaths(repository, nestedFiles);
  if (await indexBehind(repository)) await keepRecordedFiles(repository, exclusions);
}

/** Whether checkpoints committed without the index (direct-commit.ts) left it behind HEAD since it was last brought up to the work tree. */
export function indexBehind(repository: ShadowRepository): Promise<boolean> {
  return lstat(join(repository.gitDir, indexBehindMarker)).then(
    () => true,
    () => false,
  );
}

/**
 * After `add -A`, with the index behind HEAD: a file HEAD records but the index never
 * had (recorded without it) is tracked all the same, as `add -A` keeps an ignored file
 * that is tracked; it is added by path. Then the index is in step again.
 */
async function keepRecordedFiles(repository: ShadowRepository, exclusions: OwnExclusions): Promise<void> {
  const listing = await runGit({
    gitDir: repository.gitDir,
    workTree: repository.workTree,
    args: ["diff-index", "--cached", "--no-renames", "--diff-filter=D", "--name-only", "-z", "HEAD"],
    allowExitCodes: [128],
    ...(repository.signal === undefined ? {} : { signal: repository.signal }),
  });
  const kept: string[] = [];
  for (const path of splitNul(listing.stdout)) {
    if ([...exclusions.nested].some((prefix) => path.startsWith(prefix))) continue;
    const info = await lstat(join(repository.workTree, path)).catch(() => undefined);
    if (info !== undefined && (info.isFile() || info.isSymbolicLink())) kept.push(path);
  }
  if (kept.length > 0) await addPaths(repository, kept);
  await rm(join(repository.gitDir, indexBehindMarker), { force: true });
}

/** `git update-index --add --remove` for exact paths: one process for any number of them. */
export async function addPaths(repository: ShadowRepository, paths: string[]): Promise<void> {
  await runGit({
    gitDir: repository.gitDir,
    workTree: repository.workTree,
    args: ["update-index", "--add", "--remove", "-z", "--stdin"],
    input: `${paths.join("\0")}\0`,
    ...(repository.signal === undefined ? {} : { signal: repository.signal }),
  });
}

/**
 * Untracked entries of `status --untracked-files=normal` as `-uall` would list them: a
 * new folder (an entry ending in "/") is listed file by file with `ls-files --others`,
 * one process for all of them, which names a nested repository as a folder still.
 */
async function untrackedFiles(repository: ShadowRepository, entries: string[]): Promise<string[]> {
  const folders = entries.filter((entry) => entry.endsWith("/"));
  if (folders.length === 0) return entries;
  const listing = await runGit({
    gitDir: repository.gitDir,
    workTree: repository.workTree,
    args: ["ls-files", "-z", "--others", "--exclude-standard", "--", ...folders],
    ...(repository.signal === undefined ? {} : { signal: repository.signal }),
  });
  return [...entries.filter((entry) => !entry.endsWith("/")), ...splitNul(listing.stdout)];
}

/** What changed in the workspace since the index was last brought up to it. */
export type WorkspaceChanges =
  /** Nothing: a checkpoint now would equal the last one. */
  | { kind: "unchanged" }
  /** Tracked files changed (a `commit -a` stages them); new files, if any, are already added. With `collect`, nothing is staged: `paths` changed. */
  | { kind: "changed"; paths?: string[] }
  /** `git status` cannot tell (nested repositories, exclusions that changed): stage everything. */
  | { kind: "unknown" };

/**
 * The cheap way to a turn's checkpoint (issue 18): one `git status` says whether
 * anything changed and lists the new files; only new files need a process of
 * their own (`update-index --add`), tracked changes are left to `git commit -a`.
 * Nested repositories hide their new files from `git status`, so with any of
 * them the answer is "unknown" and the caller stages everything as before.
 */
export async function stageNewFiles(repository: ShadowRepository, options: { stageTracked?: boolean; collect?: boolean } = {}): Promise<WorkspaceChanges> {
  const exclusions = await readOwnExclusions(repository);
  // Paths recorded without the index (direct-commit.ts) differ between HEAD and the index: `git status` names them
  // (first letter), and staging them all, whatever the work tree's letter, brings the index back in step.
  const behind = options.stageTracked === true && (await indexBehind(repository));
  if (exclusions.stale || exclusions.nested.size > 0) return { kind: "unknown" };
  const status = await runGit({
    gitDir: repository.gitDir,
    workTree: repository.workTree,
    // The scan of a large workspace (issue 33): with the untracked cache, folders whose mtime did not change are
    // not read again for new files (kept in the index's UNTR extension; git checks the excludes files' ids).
    // Git 2.39 serves it only to `--untracked-files=normal`, which names a new folder, not its files.
    args: ["-c", "core.untrackedCache=true", "status", "--porcelain", "-z", "--untracked-files=normal", "--no-renames"],
    ...(repository.signal === undefined ? {} : { signal: repository.signal }),
  });
  const entries = splitNul(status.stdout);
  if (entries.length === 0) return { kind: "unchanged" };
  // Porcelain v1: two status letters, a space, the path; "??" marks an untracked one.
  const untrackedEntries = entries.filter((entry) => entry.startsWith("?? ")).map((entry) => entry.slice(3));
  const trackedChanged = untrackedEntries.length < entries.length;
  const untracked = await untrackedFiles(repository, untrackedEntries);
  // With `stageTracked`, files changed in the work tree (second letter) are staged here too, for a commit of the index as it is.
  // With `collect`, every tracked entry: the caller records each path's work-tree state on HEAD.
  const everyTracked = behind || options.collect === true;
  const tracked = options.stageTracked === true ? entries.filter((entry) => !entry.startsWith("?? ") && (everyTracked || entry[1] !== " ")).map((entry) => entry.slice(3)) : [];
  if (untracked.length === 0 && tracked.length === 0) return trackedChanged ? { kind: "changed" } : { kind: "unchanged" };
  const largeBefore = exclusions.large.size;
  const { files, newNested } = await classifyUntracked(repository, untracked, exclusions);
  if (newNested) return { kind: "unknown" };
  if (exclusions.large.size !== largeBefore) await writeOwnExclusions(exclusions, repository.gitDir);
  // A file recorded without the index and not in it shows twice ("D " and "??").
  if (options.collect === true) return { kind: "changed", paths: [...new Set([...tracked, ...files])] };
  if (files.length + tracked.length > 0) await addPaths(repository, [...tracked, ...files]);
  if (behind) await rm(join(repository.gitDir, indexBehindMarker), { force: true });
  return files.length > 0 || trackedChanged ? { kind: "changed" } : { kind: "unchanged" };
}
