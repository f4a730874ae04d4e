/**
 * The workspace's files for the first turn's environment details: breadth-first
 * (the top of the tree first, each folder's entries by name), honouring
 * `.gitignore` files at every level and `.cairnignore`/`.clineignore` at the
 * root, and stopping at the limit. It used to glob the whole workspace and keep
 * the first 200 paths: a large repository was crawled in full before the first
 * request (issue 18: start-up).
 */
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import ignore, { type Ignore } from "ignore";

/** Folders never listed: dependencies, build output and caches, which say little about the project. */
const skippedFolders = new Set(["node_modules", ".git", "dist", "build", ".venv", "__pycache__", "target"]);

/** Folders read at most, so a tree of empty folders cannot keep the first turn waiting. */
const maxFolders = 2_000;

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

export async function listWorkspace(workspace: string, limit = 200): Promise<{ files: string[]; truncated: boolean }> {
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
    if (read === maxFolders) return { files, truncated: true };
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
      if (files.length === limit) return { files, truncated: true };
      files.push(relative);
    }
  }
  return { files, truncated: false };
}
