/**
 * The workspace's files for the first turn's environment details: breadth-first
 * (the top of the tree first, each folder's entries by name), honouring
 * `.gitignore` files at every level and `.cairnignore`/`.clineignore` at the
 * root, and stopping at the limit (of files, of characters, and of time). It used to glob the whole workspace and keep
 * the first 200 paths: a large repository was crawled in full before the first
 * request (issue 18: start-up).
 */
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import ignore, { type Ignore } from "ignore";

/** Folders never listed: dependencies, build output and caches, which say little about the project. */
const skippedFolders = new Set(["node_modules", ".git", "dist", "build", ".venv", "__pycache__", "target"]);

/** Folders read at most, so a tree of empty folders cannot keep the first turn waiting. */
const maxFolders = 2_000;

/** Bounds of the listing: files, characters of paths, and time (a slow or network file system cannot hold up the first turn). */
export interface ListingBounds {
  limit: number;
  maxCharacters: number;
  /** Milliseconds; folders are read only while this has not passed (the root always is). */
  timeBudgetMs: number;
}

const defaultBounds: ListingBounds = { limit: 200, maxCharacters: 20_000, timeBudgetMs: 500 };

interface Scope {
  /** The folder of the ignore file, relative to the workspace ("" for the root), with a trailing slash. */
  prefix: string;
  matcher: Ignore;
}

function readIgnoreFile(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function ignoredBy(scopes: readonly Scope[], path: string): boolean {
  for (const scope of scopes) {
    if (scope.matcher.ignores(path.slice(scope.prefix.length))) return true;
  }
  return false;
}

export async function listWorkspace(workspace: string, bounds: Partial<ListingBounds> = {}): Promise<{ files: string[]; truncated: boolean }> {
  const { limit, maxCharacters, timeBudgetMs } = { ...defaultBounds, ...bounds };
  const deadline = performance.now() + timeBudgetMs;
  let characters = 0;
  const rootMatcher = ignore();
  for (const name of [".gitignore", ".cairnignore", ".clineignore"]) {
    const text = readIgnoreFile(join(workspace, name));
    if (text !== undefined) rootMatcher.add(text);
  }
  const files: string[] = [];
  /** Folders to read, relative to the workspace with a trailing slash, and the ignore files that apply in them. */
  const queue: { path: string; scopes: Scope[] }[] = [{ path: "", scopes: [{ prefix: "", matcher: rootMatcher }] }];
  let read = 0;
  while (read < queue.length) {
    if (read === maxFolders || (read > 0 && performance.now() > deadline)) return { files, truncated: true };
    const { path, scopes: inherited } = queue[read]!;
    read += 1;
    let scopes = inherited;
    if (path !== "") {
      const gitignore = readIgnoreFile(join(workspace, path, ".gitignore"));
      if (gitignore !== undefined) scopes = [...inherited, { prefix: path, matcher: ignore().add(gitignore) }];
    }
    const entries = await readdir(join(workspace, path), { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const relative = `${path}${entry.name}`;
      if (entry.isDirectory()) {
        if (!skippedFolders.has(entry.name) && !ignoredBy(scopes, `${relative}/`)) queue.push({ path: `${relative}/`, scopes });
        continue;
      }
      if (ignoredBy(scopes, relative)) continue;
      if (files.length === limit || characters + relative.length + 1 > maxCharacters) return { files, truncated: true };
      characters += relative.length + 1;
      files.push(relative);
    }
  }
  return { files, truncated: false };
}
