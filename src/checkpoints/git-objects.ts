import { createHash, randomBytes } from "node:crypto";
import { execFile } from "node:child_process";
import { appendFile, lstat, mkdir, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { endInput, shadowGitEnvironment } from "./git.js";
import { readHeadHash } from "./shadow-records.js";

/**
 * Git objects written and read without the shadow index (issue 33): a loose object is the
 * zlib-deflated `<type> <size>\0<content>`, named by the SHA-1 of that text. Only what a
 * checkpoint of a few files needs: blobs, trees, a commit and HEAD's ref.
 */

export type ObjectType = "blob" | "tree" | "commit";

/** One entry of a tree object: mode as git writes it (40000, 100644, 100755, 120000, 160000) and the object's id. */
export interface TreeEntry {
  mode: string;
  id: string;
}

export const treeMode = "40000";

export function objectId(type: ObjectType, content: Buffer): string {
  return createHash("sha1").update(`${type} ${content.length}\0`).update(content).digest("hex");
}

/** Writes a loose object (unless it is there already) and returns its id. */
export async function writeObject(gitDir: string, type: ObjectType, content: Buffer): Promise<string> {
  const id = objectId(type, content);
  const folder = join(gitDir, "objects", id.slice(0, 2));
  const path = join(folder, id.slice(2));
  if (
    await lstat(path).then(
      () => true,
      () => false,
    )
  )
    return id;
  await mkdir(folder, { recursive: true });
  // Git's own loose objects: zlib at level 1 (core.looseCompression), read-only, put in place whole.
  const temporary = join(folder, `tmp_obj_${randomBytes(6).toString("hex")}`);
  await writeFile(temporary, deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]), { level: 1 }), { mode: 0o444 });
  await rename(temporary, path).catch(async (error: unknown) => {
    await rm(temporary, { force: true });
    throw error;
  });
  return id;
}

/**
 * A tree's names are kept as their bytes, one character each (latin1): a name that is
 * not UTF-8 goes back into the tree unchanged. `nameKey` turns a path's name into that form.
 */
export const nameKey = (name: string): string => Buffer.from(name, "utf8").toString("latin1");

/** Git's tree order: names compared as bytes, a tree's name as if it ended in "/". */
function treeOrder(a: [string, TreeEntry], b: [string, TreeEntry]): number {
  const left = Buffer.from(a[1].mode === treeMode ? `${a[0]}/` : a[0], "latin1");
  const right = Buffer.from(b[1].mode === treeMode ? `${b[0]}/` : b[0], "latin1");
  return Buffer.compare(left, right);
}

/** A tree object's content from entries keyed by `nameKey` names. */
export function serializeTree(entries: ReadonlyMap<string, TreeEntry>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, entry] of [...entries].sort(treeOrder)) parts.push(Buffer.from(`${entry.mode} ${name}\0`, "latin1"), Buffer.from(entry.id, "hex"));
  return Buffer.concat(parts);
}

/** A tree object's entries, keyed by `nameKey` names. */
export function parseTree(content: Buffer): Map<string, TreeEntry> {
  const entries = new Map<string, TreeEntry>();
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space);
    if (space === -1 || nul === -1 || nul + 21 > content.length) throw new Error("a tree object of the shadow repository is damaged");
    entries.set(content.toString("latin1", space + 1, nul), { mode: content.toString("latin1", at, space), id: content.toString("hex", nul + 1, nul + 21) });
    at = nul + 21;
  }
  return entries;
}

/** What `git cat-file --batch` said of one name: its type and content, or nothing (missing). */
export interface ObjectRead {
  type: string;
  content: Buffer;
}

/**
 * Reads objects by name (`<commit>:<folder>` resolves a folder's tree) with one
 * `git cat-file --batch`, which never reads the index. Names must not contain a newline.
 */
export function readObjects(gitDir: string, workTree: string, names: readonly string[], signal?: AbortSignal): Promise<(ObjectRead | undefined)[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      [`--git-dir=${gitDir}`, `--work-tree=${workTree}`, "cat-file", "--batch"],
      { cwd: workTree, env: shadowGitEnvironment(), encoding: "buffer", maxBuffer: 512 * 1024 * 1024, ...(signal === undefined ? {} : { signal }) },
      (error, stdout) => {
        if (error !== null) return reject(new Error(`git cat-file --batch failed: ${error.message}`));
        try {
          resolve(parseBatch(stdout, names.length));
        } catch (parseError) {
          reject(parseError instanceof Error ? parseError : new Error(String(parseError)));
        }
      },
    );
    endInput(child, names.map((name) => `${name}\n`).join(""));
  });
}

function parseBatch(output: Buffer, count: number): (ObjectRead | undefined)[] {
  const results: (ObjectRead | undefined)[] = [];
  let at = 0;
  for (let index = 0; index < count; index += 1) {
    const newline = output.indexOf(0x0a, at);
    if (newline === -1) throw new Error("git cat-file --batch ended early");
    const header = output.toString("utf8", at, newline).split(" ");
    at = newline + 1;
    if (header.length !== 3 || !/^[0-9a-f]{40}$/.test(header[0]!)) {
      results.push(undefined); // "<name> missing" (or ambiguous)
      continue;
    }
    const size = Number(header[2]);
    results.push({ type: header[1]!, content: output.subarray(at, at + size) });
    at += size + 1;
  }
  return results;
}

/** The local time zone as git writes it in a commit (+0100). */
function timeZone(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes < 0 ? "-" : "+";
  const absolute = Math.abs(minutes);
  return `${sign}${String(Math.floor(absolute / 60)).padStart(2, "0")}${String(absolute % 60).padStart(2, "0")}`;
}

/** A commit object by cairn's identity (as shadowGitEnvironment sets it for git), written loose; a root commit without `parent`. */
export async function writeCommit(gitDir: string, tree: string, parent: string | undefined, message: string, now = new Date()): Promise<string> {
  const stamp = `cairn <cairn@localhost> ${Math.floor(now.getTime() / 1000)} ${timeZone(now)}`;
  const parentLine = parent === undefined ? "" : `parent ${parent}\n`;
  return writeObject(gitDir, "commit", Buffer.from(`tree ${tree}\n${parentLine}author ${stamp}\ncommitter ${stamp}\n\n${message}`));
}

/**
 * Moves HEAD's branch from `parent` to `commit` as `git update-ref` does: under the ref's
 * lock file, only if it still names `parent`, with a reflog line where git keeps one.
 * Returns false, having changed nothing, where HEAD is not a branch or the ref moved.
 */
export async function advanceHead(gitDir: string, parent: string, commit: string, reflogMessage: string, now = new Date()): Promise<boolean> {
  const head = (await readFile(join(gitDir, "HEAD"), "utf8").catch(() => "")).trim();
  const reference = /^ref: (refs\/heads\/[^\s]+)$/.exec(head)?.[1];
  if (reference === undefined) return false;
  const path = join(gitDir, reference);
  const lock = await open(`${path}.lock`, "wx").catch(() => undefined);
  if (lock === undefined) return false;
  try {
    if ((await readHeadHash(gitDir)) !== parent) {
      await lock.close();
      await rm(`${path}.lock`, { force: true });
      return false;
    }
    await lock.writeFile(`${commit}\n`);
    await lock.close();
    await rename(`${path}.lock`, path);
  } catch (error) {
    await lock.close().catch(() => undefined);
    await rm(`${path}.lock`, { force: true });
    throw error;
  }
  const line = `${parent} ${commit} cairn <cairn@localhost> ${Math.floor(now.getTime() / 1000)} ${timeZone(now)}\t${reflogMessage}\n`;
  for (const log of [join(gitDir, "logs", "HEAD"), join(gitDir, "logs", reference)]) {
    if (
      await lstat(log).then(
        () => true,
        () => false,
      )
    )
      await appendFile(log, line);
  }
  return true;
}
