import { execFile } from "node:child_process";
import { lstat, mkdir, readFile, rename, rm, utimes, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { readIndexSummary, isGitlink, scanIndex, utf8Path } from "./index-file.js";
import { defaultExcludePatterns } from "./default-excludes.js";
import { runGit } from "./git.js";
import type { ShadowRepository } from "./staging.js";

/** The workspace's own git repository, when the workspace is its top level. */
export interface UserRepository {
  /** Its git dir (for a linked worktree, the worktree's own). */
  gitDir: string;
  /** Where its config, info/ and objects are (the main git dir of a linked worktree). */
  commonDir: string;
  objectsDir: string;
}

const exists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** `<workspace>/.git` as a folder, or as a `gitdir:` file (linked worktree, submodule). Nothing else (a workspace inside a repository) is used. */
export async function findUserRepository(workTree: string): Promise<UserRepository | undefined> {
  const dotGit = join(workTree, ".git");
  const info = await lstat(dotGit).catch(() => undefined);
  let gitDir: string;
  if (info?.isDirectory() === true) gitDir = dotGit;
  else if (info?.isFile() === true) {
    const target = /^gitdir: (.+)$/m.exec(await readFile(dotGit, "utf8").catch(() => ""))?.[1]?.trim();
    if (target === undefined) return undefined;
    gitDir = resolve(workTree, target);
  } else return undefined;
  const common = await readFile(join(gitDir, "commondir"), "utf8").then(
    (text) => resolve(gitDir, text.trim()),
    () => gitDir,
  );
  const objectsDir = join(common, "objects");
  if (!(await exists(objectsDir))) return undefined;
  return { gitDir, commonDir: common, objectsDir };
}

/**
 * Whether the user's blob ids mean the same bytes as the shadow's would: not when the
 * user's git converts content on `git add` in ways the shadow does not (core.autocrlf,
 * filter drivers such as Git LFS, attributes in info/), nor for SHA-256 repositories.
 */
async function sameContentRules(workTree: string, user: UserRepository, attributesFiles: string[]): Promise<boolean> {
  const config = await readFile(join(user.commonDir, "config"), "utf8").catch(() => "");
  if (/objectformat\s*=\s*sha256/i.test(config)) return false;
  if ((await readFile(join(user.commonDir, "info", "attributes"), "utf8").catch(() => "")).trim() !== "") return false;
  for (const path of attributesFiles) {
    if (/\bfilter\s*=/.test(await readFile(join(workTree, path), "utf8").catch(() => ""))) return false;
  }
  // The user's effective config (system, global, repository): read only.
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("GIT_")) env[key] = value;
  const converting = await new Promise<boolean>((done) => {
    execFile("git", ["config", "--get-regexp", "^(core\\.autocrlf|filter\\..*)$"], { cwd: workTree, env, encoding: "utf8" }, (error, stdout) => {
      if (error !== null) return done((error as { code?: unknown }).code !== 1); // exit 1: none of them is set
      const autocrlf = /^core\.autocrlf (.*)$/im.exec(stdout)?.[1]?.trim().toLowerCase();
      const filters = stdout.split("\n").some((line) => line.startsWith("filter."));
      done(filters || (autocrlf !== undefined && autocrlf !== "false"));
    });
  });
  return !converting;
}

/**
 * Seeds a new shadow repository's index from the workspace's own `.git/index`, with the
 * user's object store as an alternate: the same paths, stat data and blob ids, so the
 * first checkpoint hashes only the files changed since the user's last `git add`
 * instead of every file. The copy's mtime is set back to the start of the second the
 * user's index was written, so every entry git could not yet trust there ("racily
 * clean") is compared by content here too. Entries the shadow never records are
 * dropped: submodules (their files are snapshotted one by one), files over the size
 * limit, and tracked files under cairn's default excludes (node_modules/, dist/, ...);
 * files the user tracks although a .gitignore names them stay, as the user's git keeps them.
 * Returns undefined (and leaves no trace) when the index cannot be used.
 */
export async function seedShadowIndex(repository: ShadowRepository): Promise<SeededIndex | undefined> {
  const user = await findUserRepository(repository.workTree);
  if (user === undefined) return undefined;
  const userIndex = join(user.gitDir, "index");
  const [buffer, info] = await Promise.all([readFile(userIndex).catch(() => undefined), lstat(userIndex).catch(() => undefined)]);
  if (buffer === undefined || info === undefined) return undefined;
  const index = readIndexView(buffer, repository.maxFileBytes);
  // A split index needs its shared part in the user's git dir; a sparse index or sparse checkout has entries that are not on disk.
  if (index === undefined || index.extensions.some((name) => name === "link" || name === "sdir") || index.skipWorktree) return undefined;
  if (!(await sameContentRules(repository.workTree, user, index.attributes))) return undefined;

  const alternates = join(repository.gitDir, "objects", "info", "alternates");
  const shadowIndex = join(repository.gitDir, "index");
  try {
    await mkdir(join(repository.gitDir, "objects", "info"), { recursive: true });
    await writeFile(alternates, `${user.objectsDir}\n`);
    await writeFile(`${shadowIndex}.seed`, buffer);
    const second = Math.floor(info.mtimeMs / 1000);
    await utimes(`${shadowIndex}.seed`, second, second);
    await rename(`${shadowIndex}.seed`, shadowIndex);
    const drop = index.drop;
    // The user's untracked cache was made with the user's excludes: it goes too.
    if (drop.length > 0 || index.extensions.includes("UNTR")) {
      await runGit({
        gitDir: repository.gitDir,
        workTree: repository.workTree,
        args: ["update-index", "--no-untracked-cache", "--force-remove", "-z", "--stdin"],
        input: drop.map((path) => `${path}\0`).join(""),
        ...(repository.signal === undefined ? {} : { signal: repository.signal }),
      });
    }
    // Every entry kept as the user has it, none that `git status` judges otherwise than `git add` would record.
    return { user, indexStamp: stampOf(info), whole: drop.length === 0 && !index.unusual, treeIds: index.treeIds };
  } catch (error) {
    await unseedShadowIndex(repository.gitDir);
    if (repository.signal?.aborted === true) throw error;
    return undefined;
  }
}

/** A seeded shadow index and what the shadow's first checkpoint may build on without it (first-checkpoint.ts). */
export interface SeededIndex {
  user: UserRepository;
  /** The user's index file as read (size, mtime, inode): a `git add` of theirs since changes it. */
  indexStamp: string;
  /** The seed is the user's index whole: nothing dropped, no conflict, intent-to-add or assume-unchanged entry. */
  whole: boolean;
  /** The trees the user's index's cache-tree extension names, the whole index's first; empty where it is not valid. */
  treeIds: string[];
}

/** A file's identity and version as `lstat` gives it. */
export const stampOf = (info: { size: number; mtimeMs: number; ino: number }): string => `${info.size}:${info.mtimeMs}:${info.ino}`;

/** What seeding needs of the user's index: its entries' flags, the paths to drop, the tracked `.gitattributes` files, its trees. */
interface IndexView {
  extensions: string[];
  skipWorktree: boolean;
  /** A conflict's, intent-to-add or assume-unchanged entry. */
  unusual: boolean;
  /** Entries the shadow never records: submodules, files over the size limit, paths under cairn's default excludes. */
  drop: string[];
  attributes: string[];
  treeIds: string[];
}

/**
 * Reads the user's index for seeding. The fast pass (`scanIndex`) looks at no entry's
 * path as a string: where no entry is a gitlink or large, none is named like a default
 * exclude or `.gitattributes`, and the cache-tree names every folder (none excluded), it
 * is the answer. Otherwise every entry's path is read and matched (about 0.1-0.3 s on
 * 50,000 entries, cold).
 */
function readIndexView(buffer: Buffer, largeBytes: number): IndexView | undefined {
  const scan = scanIndex(buffer, largeBytes, suspectName);
  if (scan !== undefined && !scan.notable && scan.treeIds.length > 0 && !scan.treeNames.some((name) => excludedFolders.has(name))) {
    return { extensions: scan.extensions, skipWorktree: scan.skipWorktree, unusual: scan.unusual, drop: [], attributes: [], treeIds: scan.treeIds };
  }
  const summary = readIndexSummary(buffer);
  if (summary === undefined) return undefined;
  const folders = new Map<string, boolean>();
  return {
    extensions: summary.extensions,
    skipWorktree: summary.entries.some((entry) => entry.skipWorktree),
    unusual: summary.entries.some((entry) => entry.stage !== 0 || entry.assumeValid || entry.intentToAdd),
    drop: summary.entries.filter((entry) => isGitlink(entry) || entry.size > largeBytes || excludedByDefault(entry.path, folders)).map(utf8Path),
    attributes: summary.entries.filter((entry) => entry.path === ".gitattributes" || entry.path.endsWith("/.gitattributes")).map(utf8Path),
    treeIds: summary.treeIds,
  };
}

/** Whether a name (bytes `start` to `end` of `buffer`) may be one cairn excludes by name or suffix, or a `.gitattributes`: then the slow way looks. */
function suspectName(buffer: Buffer, start: number, end: number): boolean {
  if (!lastBytes.has(buffer[end - 1]!)) return false;
  for (const ending of nameEndings) {
    const from = end - ending.length;
    if (from >= start && buffer.compare(ending, 0, ending.length, from, end) === 0) return true;
  }
  return false;
}

/** Whether cairn's default excludes (node_modules/, dist/, *.pyc, ...) cover a path. */
export function excludedByDefault(path: string, folders: Map<string, boolean> = new Map()): boolean {
  const slash = path.lastIndexOf("/");
  const name = path.slice(slash + 1);
  if (excludedNames.has(name) || excludedSuffixes.some((suffix) => name.endsWith(suffix))) return true;
  if (slash === -1) return false;
  // The answer for a folder is kept in `folders`: 50,000 paths share a few hundred folders.
  const folder = path.slice(0, slash);
  let excluded = folders.get(folder);
  if (excluded === undefined) {
    excluded = folder.split("/").some((part) => excludedFolders.has(part));
    folders.set(folder, excluded);
  }
  return excluded;
}

const excludedFolders = new Set(defaultExcludePatterns.filter((pattern) => pattern.endsWith("/")).map((pattern) => pattern.slice(0, -1)));
const excludedSuffixes = defaultExcludePatterns.filter((pattern) => pattern.startsWith("*")).map((pattern) => pattern.slice(1));
const excludedNames = new Set(defaultExcludePatterns.filter((pattern) => !pattern.endsWith("/") && !pattern.startsWith("*")));
/** Names and suffixes the fast pass looks for at the end of each path (a name's match need not start at a "/": the slow way decides). */
const nameEndings = [...excludedNames, ...excludedSuffixes, ".gitattributes"].map((ending) => Buffer.from(ending, "utf8"));
const lastBytes = new Set(nameEndings.map((ending) => ending[ending.length - 1]!));

/** Undoes a seed that could not be used: the shadow index and the alternate go, the next staging starts from nothing. */
export async function unseedShadowIndex(gitDir: string): Promise<void> {
  await rm(join(gitDir, "objects", "info", "alternates"), { force: true });
  await rm(join(gitDir, "index"), { force: true });
  await rm(join(gitDir, "index.seed"), { force: true });
}
