import { lstat, readFile, readlink, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { execFile } from "node:child_process";
import { endInput, shadowGitEnvironment } from "./git.js";
import { advanceHead, nameKey, parseTree, readObjects, serializeTree, treeMode, writeCommit, writeObject, type TreeEntry } from "./git-objects.js";
import type { ShadowRepository } from "./staging.js";

/**
 * A checkpoint of a few known paths committed without the shadow index (issue 33): the
 * files are hashed and written as blobs by cairn, the trees along their paths are read
 * from the parent commit (one `git cat-file --batch`) and written again with the
 * changes, then the commit and HEAD's ref. On 50,000 files the index is 4.4 MB that
 * `git add` and `write-tree` would each read and write.
 *
 * The shadow index is left behind HEAD for those paths: `git status` names every such
 * path (HEAD and index differ), so the next scan sees them, and the index-based stagings
 * sync them (staging.ts). Anything this cannot record exactly as `git add -A` would
 * answers "fallback" and nothing is written but objects no ref reaches.
 */
export type DirectCommit = { kind: "committed"; commit: string; tree: string } | { kind: "unchanged"; tree: string } | { kind: "fallback" };

/**
 * The workspace-relative ("/"-separated) paths of the files a turn's tools named; those
 * outside the workspace are left out (a scan would not record them either). Undefined
 * when a `.gitignore` is among them: other files' status changes, so the workspace is scanned.
 */
export function namedPaths(workTree: string, absolutePaths: readonly string[]): string[] | undefined {
  const paths = new Set<string>();
  for (const absolute of absolutePaths) {
    const path = relative(workTree, absolute);
    if (path === "" || path === ".." || path.startsWith(`..${sep}`) || isAbsolute(path)) continue;
    if (path.split(sep).at(-1) === ".gitignore") return undefined;
    paths.add(path.split(sep).join("/"));
  }
  return [...paths];
}

/** A commit of `tree` on `parent` written by cairn, HEAD moved to it; by `git update-ref` (`git`) should the ref be busy or moved. */
export async function commitTreeOnHead(gitDir: string, parent: string, tree: string, message: string, reflogMessage: string, git: (args: string[]) => Promise<unknown>): Promise<string> {
  const commit = await writeCommit(gitDir, tree, parent, message);
  if (!(await advanceHead(gitDir, parent, commit, reflogMessage))) await git(["update-ref", "-m", reflogMessage, "HEAD", commit, parent]);
  return commit;
}

/** The file name in the git dir that says the index may be behind HEAD (direct commits since the last full sync). */
export const indexBehindMarker = "cairn-index-behind";

const fallback: DirectCommit = { kind: "fallback" };

const parentOf = (path: string): string => {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
};
/** A path's last name as a tree's key (its UTF-8 bytes, see `nameKey`). */
const nameOf = (path: string): string => nameKey(path.slice(path.lastIndexOf("/") + 1));

/** What git would record for a path of the work tree now: a blob entry, null when it is gone, undefined when unusual. */
async function workTreeEntry(repository: ShadowRepository, path: string): Promise<TreeEntry | null | undefined> {
  const absolute = join(repository.workTree, path);
  const info = await lstat(absolute).catch((error: NodeJS.ErrnoException) => error);
  if (info instanceof Error) return info.code === "ENOENT" ? null : undefined;
  if (info.isSymbolicLink()) return { mode: "120000", id: await writeObject(repository.gitDir, "blob", Buffer.from(await readlink(absolute, { encoding: "buffer" }))) };
  if (!info.isFile() || info.size > repository.maxFileBytes) return undefined;
  // core.fileMode: the owner's execute bit makes 100755, as git's index does.
  return { mode: (info.mode & 0o100) !== 0 ? "100755" : "100644", id: await writeObject(repository.gitDir, "blob", await readFile(absolute)) };
}

/** Settings or files under which git would not record a file's bytes as they are (or not by its stat mode): then the index way. */
async function unusualRepository(repository: ShadowRepository): Promise<boolean> {
  const config = await readFile(join(repository.gitDir, "config"), "utf8").catch(() => undefined);
  if (config === undefined || /^\s*(filemode|symlinks)\s*=\s*false/im.test(config) || /^\s*(ignorecase|precomposeunicode)\s*=\s*true/im.test(config) || /^\s*\[filter/im.test(config)) return true;
  return lstat(join(repository.gitDir, "info", "attributes")).then(
    () => true,
    () => false,
  );
}

/**
 * Whether every folder along the paths is a plain folder (not a symlink) with no
 * `.gitattributes` (eol, text or filter attributes change what git records), and, with
 * `noNested`, no `.git` (a nested repository).
 */
async function plainFolders(repository: ShadowRepository, paths: readonly string[], noNested: boolean): Promise<boolean> {
  const checked = new Set<string>();
  for (const path of paths) {
    for (let folder = parentOf(path); !checked.has(folder); folder = parentOf(folder)) {
      checked.add(folder);
      const absolute = join(repository.workTree, folder);
      const info = await lstat(absolute).catch(() => undefined);
      // A missing folder is a deleted file's: its removal is what it records.
      if (info !== undefined && !info.isDirectory()) return false;
      if (info !== undefined) {
        // The workspace's own .git is the user's repository, not a nested one.
        const marks = noNested && folder !== "" ? [".gitattributes", ".git"] : [".gitattributes"];
        for (const mark of marks)
          if (
            await lstat(join(absolute, mark)).then(
              () => true,
              () => false,
            )
          )
            return false;
      }
      if (folder === "") break;
    }
  }
  return true;
}

/** The paths (of those given, new to the parent commit) that the workspace's ignore rules leave out, by `git check-ignore --no-index`. */
function ignoredPaths(repository: ShadowRepository, paths: readonly string[], signal?: AbortSignal): Promise<Set<string>> {
  if (paths.length === 0) return Promise.resolve(new Set());
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      [`--git-dir=${repository.gitDir}`, `--work-tree=${repository.workTree}`, "check-ignore", "--no-index", "-z", "--stdin"],
      { cwd: repository.workTree, env: shadowGitEnvironment(), encoding: "utf8", ...(signal === undefined ? {} : { signal }) },
      (error, stdout, stderr) => {
        // Exit 1: none of them is ignored.
        if (error !== null && (error as { code?: unknown }).code !== 1) return reject(new Error(`git check-ignore failed: ${stderr.trim() || error.message}`));
        resolve(new Set(stdout.split("\0").filter((path) => path !== "")));
      },
    );
    endInput(child, `${paths.join("\0")}\0`);
  });
}

type FolderTree = Map<string, TreeEntry> | "absent" | "not a tree";

/**
 * Commits the work tree's state of `paths` (workspace-relative, "/"-separated) on top of
 * `parent`: each is a file or symlink now (recorded), or gone (removed). With
 * `skipIgnored`, a path the parent does not have is left out when ignored, as `git add
 * -A <paths>` leaves it (a tracked one is recorded all the same).
 */
export async function commitPaths(
  repository: ShadowRepository,
  parent: string,
  paths: readonly string[],
  options: { skipIgnored: boolean; noNested: boolean; message: string; reflogMessage: string },
): Promise<DirectCommit> {
  const written = await treeWithPaths(repository, parent, paths, options);
  if (written === undefined) return fallback;
  const { tree, baseTree } = written;
  if (baseTree === tree) return { kind: "unchanged", tree };
  // Before HEAD moves: the index is behind it from now on.
  await writeFile(join(repository.gitDir, indexBehindMarker), "1\n");
  const commit = await writeCommit(repository.gitDir, tree, parent, options.message);
  if (!(await advanceHead(repository.gitDir, parent, commit, options.reflogMessage))) return fallback;
  return { kind: "committed", commit, tree };
}

/**
 * The first commit of a shadow repository that has none: `baseTree` (a tree the shadow can
 * read, the user's index's) with the work tree's state of `paths` on top, as a root commit
 * that HEAD's branch is created on. The index is marked behind HEAD, as after `commitPaths`.
 */
export async function commitFirstPaths(
  repository: ShadowRepository,
  baseTree: string,
  paths: readonly string[],
  options: { message: string; reflogMessage: string; git: (args: string[]) => Promise<unknown> },
): Promise<DirectCommit> {
  // Nothing differs from the user's index (a clean checkout): its tree is the checkpoint's.
  const written = paths.length === 0 ? { tree: baseTree } : await treeWithPaths(repository, baseTree, paths, { skipIgnored: false, noNested: false });
  if (written === undefined) return fallback;
  await writeFile(join(repository.gitDir, indexBehindMarker), "1\n");
  const commit = await writeCommit(repository.gitDir, written.tree, undefined, options.message);
  // The empty old value: the branch must not exist yet.
  await options.git(["update-ref", "-m", options.reflogMessage, "HEAD", commit, ""]);
  return { kind: "committed", commit, tree: written.tree };
}

/**
 * The tree of `base` (a commit or a tree) with the work tree's state of `paths` on top, its
 * new trees written; undefined where that cannot be done exactly (then the index way).
 */
async function treeWithPaths(repository: ShadowRepository, base: string, paths: readonly string[], options: { skipIgnored: boolean; noNested: boolean }): Promise<{ tree: string; baseTree: string } | undefined> {
  if (
    paths.some(
      (path) => path === "" || path.startsWith(":") || /[\n\r\uFFFD]/.test(path) || path.split("/").some((part) => part === ".git" || part === "" || part === "." || part === "..") || nameOf(path) === ".gitattributes",
    )
  )
    return undefined;
  if ((await unusualRepository(repository)) || !(await plainFolders(repository, paths, options.noNested))) return undefined;
  const folders = new Set<string>();
  for (const path of paths)
    for (let folder = parentOf(path); ; folder = parentOf(folder)) {
      folders.add(folder);
      if (folder === "") break;
    }
  const folderList = [...folders];
  // The base (a commit for its tree's id, or the tree), then each folder's tree in it.
  const names = [base, ...folderList.map((folder) => (folder === "" ? `${base}^{tree}` : `${base}:${folder}`))];
  const [objects, ignored] = await Promise.all([
    readObjects(repository.gitDir, repository.workTree, names, repository.signal),
    options.skipIgnored ? ignoredPaths(repository, paths, repository.signal) : Promise.resolve(new Set<string>()),
  ]);
  const parentTreeId = objects[0]?.type === "commit" ? /^tree ([0-9a-f]{40})/.exec(objects[0].content.toString("latin1"))?.[1] : objects[0]?.type === "tree" ? base : undefined;
  if (parentTreeId === undefined) return undefined;
  const trees = new Map<string, FolderTree>();
  folderList.forEach((folder, index) => {
    const read = objects[index + 1];
    trees.set(folder, read === undefined ? "absent" : read.type === "tree" ? parseTree(read.content) : "not a tree");
  });
  const root = trees.get("");
  if (root === undefined || typeof root === "string") return undefined;

  const changes = new Map<string, Map<string, TreeEntry | null>>();
  for (const path of paths) {
    const tree = trees.get(parentOf(path))!;
    if (tree === "not a tree") return undefined;
    const before = tree === "absent" ? undefined : tree.get(nameOf(path));
    if (before !== undefined && (before.mode === treeMode || before.mode === "160000")) return undefined;
    if (before === undefined && ignored.has(path)) continue;
    const entry = await workTreeEntry(repository, path);
    if (entry === undefined) return undefined;
    const folderChanges = changes.get(parentOf(path)) ?? new Map<string, TreeEntry | null>();
    folderChanges.set(nameOf(path), entry);
    changes.set(parentOf(path), folderChanges);
  }

  // Deepest folders first, so each folder's new tree is known before its parent's.
  const results = new Map<string, string | null>();
  const depth = (folder: string): number => (folder === "" ? 0 : folder.split("/").length);
  for (const folder of folderList.sort((a, b) => depth(b) - depth(a))) {
    const tree = trees.get(folder)!;
    if (tree === "not a tree") return undefined;
    const entries = new Map(tree === "absent" ? [] : tree);
    for (const [name, entry] of changes.get(folder) ?? []) {
      if (entry === null) entries.delete(name);
      else entries.set(name, entry);
    }
    for (const [child, id] of results) {
      if (child === "" || parentOf(child) !== folder) continue;
      const before = entries.get(nameOf(child));
      if (before !== undefined && before.mode !== treeMode) return undefined;
      if (id === null) entries.delete(nameOf(child));
      else entries.set(nameOf(child), { mode: treeMode, id });
    }
    // Git records no empty folder: one left empty goes from its parent (the root stays, empty or not).
    results.set(folder, entries.size === 0 && folder !== "" ? null : await writeObject(repository.gitDir, "tree", serializeTree(entries)));
  }
  const tree = results.get("")!;
  if (tree === null || tree === undefined) return undefined;
  return { tree, baseTree: parentTreeId };
}
