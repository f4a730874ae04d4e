/**
 * Breadth-first walk of a folder that honours `.gitignore` files at every
 * level (and skips `.git` and `node_modules`), stopping at a limit. Files
 * hidden by `.cairnignore` are reported as such and never descended into.
 */
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import type { WorkspaceGuard } from "./workspace-guard.js";

export interface WalkEntry {
  absolute: string;
  isDirectory: boolean;
  /** Hidden by .cairnignore: its name may be shown, never its content. */
  ignored: boolean;
  /** The caller's `refuses` said no (read_file would refuse it): named, never descended into. */
  refused?: boolean;
}

export interface WalkResult {
  entries: WalkEntry[];
  truncated: boolean;
}

const alwaysSkipped = new Set([".git", "node_modules"]);

interface Scope {
  folder: string;
  matcher: Ignore;
}

function loadGitignore(folder: string): Scope | undefined {
  try {
    const text = readFileSync(join(folder, ".gitignore"), "utf8");
    return { folder, matcher: ignore().add(text) };
  } catch {
    return undefined;
  }
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

function gitIgnored(scopes: Scope[], absolute: string, isDirectory: boolean): boolean {
  for (const scope of scopes) {
    const relativePath = toPosix(relative(scope.folder, absolute));
    if (relativePath === "" || relativePath.startsWith("..")) continue;
    if (scope.matcher.ignores(isDirectory ? `${relativePath}/` : relativePath)) return true;
  }
  return false;
}

export async function walkFiles(options: {
  root: string;
  recursive: boolean;
  limit: number;
  guard: WorkspaceGuard;
  signal?: AbortSignal;
  /** Entries whose content may not be shown (credentials folders): marked, and folders not descended into. */
  refuses?: (absolute: string) => Promise<boolean>;
}): Promise<WalkResult> {
  const { root, recursive, limit, guard } = options;
  const entries: WalkEntry[] = [];
  const rootScope = loadGitignore(root);
  const queue: Array<{ folder: string; scopes: Scope[] }> = [{ folder: root, scopes: rootScope ? [rootScope] : [] }];
  while (queue.length > 0) {
    if (options.signal?.aborted === true) break;
    const current = queue.shift();
    if (current === undefined) break;
    let children;
    try {
      children = await readdir(current.folder, { withFileTypes: true });
    } catch {
      continue;
    }
    children.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    for (const child of children) {
      if (alwaysSkipped.has(child.name)) continue;
      const absolute = join(current.folder, child.name);
      const isDirectory = child.isDirectory();
      if (gitIgnored(current.scopes, absolute, isDirectory)) continue;
      if (entries.length >= limit) return { entries, truncated: true };
      const ignored = guard.isIgnored(absolute);
      const refused = !ignored && options.refuses !== undefined && (await options.refuses(absolute));
      entries.push(refused ? { absolute, isDirectory, ignored, refused } : { absolute, isDirectory, ignored });
      if (recursive && isDirectory && !ignored && !refused) {
        const scope = loadGitignore(absolute);
        queue.push({ folder: absolute, scopes: scope ? [...current.scopes, scope] : current.scopes });
      }
    }
  }
  return { entries, truncated: false };
}
