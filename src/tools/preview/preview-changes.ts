/**
 * What a previewed command would change (#30): created, changed and deleted
 * files, read from the overlay's layers and the listings the preview made
 * (overlay-launch.ts), shown as a diff; and applying them to the workspace:
 * exactly what was shown is copied back, refused when the workspace changed
 * since in any place the preview touches.
 */
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { unifiedDiff } from "../unified-diff.js";
import type { PreviewFolders } from "./overlay-launch.js";

export type EntryKind = "file" | "folder" | "link";

export interface PreviewChange {
  /** Relative to the workspace, with `/`. */
  path: string;
  kind: EntryKind;
  change: "created" | "changed" | "deleted";
}

export interface PreviewResult {
  changes: PreviewChange[];
  /** What the workspace held at the preview, for the paths the changes touch (size and time; undefined: absent). */
  before: Map<string, { size: number; mtimeMs: number } | undefined>;
}

function kindOf(letter: string): EntryKind | undefined {
  return letter === "f" ? "file" : letter === "d" ? "folder" : letter === "l" ? "link" : undefined;
}

function readList(file: string): Map<string, EntryKind> {
  const entries = new Map<string, EntryKind>();
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return entries;
  }
  for (const item of text.split("\0")) {
    const kind = kindOf(item.slice(0, 1));
    if (kind !== undefined) entries.set(item.slice(2).replace(/^\.\//, ""), kind);
  }
  return entries;
}

/** Every entry under `folder` (relative to `base`), depth first, folders after their content. */
function walk(base: string, folder: string): Array<{ path: string; kind: EntryKind }> {
  const found: Array<{ path: string; kind: EntryKind }> = [];
  let names: string[];
  try {
    names = readdirSync(join(base, folder));
  } catch {
    return found;
  }
  for (const name of names.sort()) {
    const path = `${folder}/${name}`;
    const stats = lstatSync(join(base, path), { throwIfNoEntry: false });
    if (stats === undefined) continue;
    if (stats.isDirectory()) found.push(...walk(base, path), { path, kind: "folder" });
    else found.push({ path, kind: stats.isSymbolicLink() ? "link" : "file" });
  }
  return found;
}

function sameContent(left: string, right: string): boolean {
  try {
    const a = lstatSync(left);
    const b = lstatSync(right);
    if (a.isSymbolicLink() || b.isSymbolicLink()) return a.isSymbolicLink() && b.isSymbolicLink() && readlinkSync(left) === readlinkSync(right);
    return a.size === b.size && (a.mode & 0o777) === (b.mode & 0o777) && readFileSync(left).equals(readFileSync(right));
  } catch {
    return false;
  }
}

function snapshot(path: string): { size: number; mtimeMs: number } | undefined {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  return stats === undefined ? undefined : { size: stats.size, mtimeMs: stats.mtimeMs };
}

/** The changes a preview made, from its layers; `workspace` is the real one (unchanged). */
export function readPreview(workspace: string, folders: PreviewFolders): PreviewResult {
  const merged = readList(folders.mergedList);
  const lower = readList(folders.lowerList);
  const changes: PreviewChange[] = [];
  for (const [path, kind] of lower) {
    if (merged.get(path) === kind) continue;
    if (kind === "folder") for (const inner of walk(workspace, path)) changes.push({ ...inner, change: "deleted" });
    changes.push({ path, kind, change: "deleted" });
  }
  for (const [path, kind] of merged) {
    const was = lower.get(path);
    if (was !== kind) {
      changes.push({ path, kind, change: "created" });
      if (kind === "folder") for (const inner of walk(folders.upper, path).reverse()) changes.push({ ...inner, change: "created" });
    } else if (kind !== "folder" && existsSync(join(folders.upper, path)) && !sameContent(join(folders.upper, path), join(workspace, path))) {
      changes.push({ path, kind, change: "changed" });
    }
  }
  changes.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
  const before = new Map(changes.map((change) => [change.path, snapshot(join(workspace, change.path))] as const));
  return { changes, before };
}

const shownEntries = 40;
const diffLines = 400;

function isText(buffer: Buffer): boolean {
  return buffer.length <= 256 * 1024 && !buffer.subarray(0, 8000).includes(0);
}

/** The changes as the user reads them: one line each (folders with many files summed up), then the diff of text files. */
export function describePreview(workspace: string, folders: PreviewFolders, result: PreviewResult): string {
  const files = result.changes.filter((change) => change.kind !== "folder");
  if (result.changes.length === 0) return "It would change nothing in the workspace.";
  const counts = { created: 0, changed: 0, deleted: 0 };
  for (const change of files) counts[change.change]++;
  const lines = [`It would create ${counts.created}, change ${counts.changed} and delete ${counts.deleted} file${counts.deleted === 1 ? "" : "s"}:`];
  const listed = files.length > 0 ? files : result.changes;
  for (const change of listed.slice(0, shownEntries)) lines.push(`  ${change.change} ${change.path}${change.kind === "folder" ? "/" : change.kind === "link" ? " (link)" : ""}`);
  if (listed.length > shownEntries) {
    const rest = new Map<string, number>();
    for (const change of listed.slice(shownEntries)) {
      const key = `${change.change} ${change.path.split("/")[0] ?? ""}/`;
      rest.set(key, (rest.get(key) ?? 0) + 1);
    }
    for (const [key, count] of rest) lines.push(`  ${key} (${count} more)`);
  }
  const diffs: string[] = [];
  for (const change of files) {
    if (change.kind !== "file") continue;
    const read = (base: string): Buffer => (change.change === (base === workspace ? "created" : "deleted") ? Buffer.alloc(0) : readFileSync(join(base, change.path)));
    const before = read(workspace);
    const after = read(folders.upper);
    if (!isText(before) || !isText(after)) continue;
    diffs.push(unifiedDiff({ path: change.path, before: before.toString("utf8"), after: after.toString("utf8") }));
    if (diffs.join("\n").split("\n").length > diffLines) break;
  }
  const diffText = diffs.filter((diff) => diff !== "").join("\n");
  const cut = diffText.split("\n");
  if (diffText !== "") lines.push("", ...cut.slice(0, diffLines), ...(cut.length > diffLines ? [`[… the diff goes on; ${cut.length - diffLines} more lines]`] : []));
  return lines.join("\n");
}

/** Copies the previewed changes into the workspace, unless the workspace changed since where they apply; returns a problem or undefined. */
export function applyPreview(options: { workspace: string; folders: PreviewFolders; result: PreviewResult; skip: (path: string) => string | undefined }): { problem?: string; skipped: string[] } {
  const { workspace, folders, result } = options;
  for (const [path, was] of result.before) {
    const now = snapshot(join(workspace, path));
    if (now?.size !== was?.size || now?.mtimeMs !== was?.mtimeMs) return { problem: `${path} changed in the workspace since the preview`, skipped: [] };
  }
  const skipped: string[] = [];
  const applies = result.changes.filter((change) => {
    const why = options.skip(change.path);
    if (why !== undefined) skipped.push(`${change.path} (${why})`);
    return why === undefined;
  });
  // Deleted entries go first (a file may become a folder), deepest first; then what is created or changed, parents first.
  for (const change of [...applies].reverse()) if (change.change === "deleted") rmSync(join(workspace, change.path), { recursive: true, force: true });
  for (const change of applies) {
    if (change.change === "deleted") continue;
    const source = join(folders.upper, change.path);
    const target = join(workspace, change.path);
    if (change.kind === "folder") {
      mkdirSync(target, { recursive: true });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    rmSync(target, { force: true });
    if (change.kind === "link") symlinkSync(readlinkSync(source), target);
    else {
      copyFileSync(source, target);
      chmodSync(target, lstatSync(source).mode & 0o7777);
    }
  }
  return { skipped };
}
