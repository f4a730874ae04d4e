/** A plugin's content hash: sha256 over each file's path, executable bit and bytes, in path order (`.git` left out). */
import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";

async function filesOf(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (entry.name === ".git") continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) found.push(path);
    }
  };
  await walk(root);
  return found.map((path) => relative(root, path)).sort();
}

/** Each file's own hash (its executable bit and bytes), by relative path. */
export async function fileHashes(root: string): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const path of await filesOf(root)) {
    const file = join(root, path);
    const executable = ((await stat(file)).mode & 0o111) !== 0;
    hashes.set(
      path,
      createHash("sha256")
        .update(executable ? "x" : "-")
        .update(await readFile(file))
        .digest("hex"),
    );
  }
  return hashes;
}

export function combinedHash(files: ReadonlyMap<string, string>): string {
  const hash = createHash("sha256");
  for (const [path, fileHash] of files) hash.update(path).update("\0").update(fileHash).update("\0");
  return hash.digest("hex");
}

export async function contentHash(root: string): Promise<string> {
  return combinedHash(await fileHashes(root));
}

/** Files added (`+`), changed (`~`) and removed (`-`) between two versions. */
export function changedFiles(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  const lines: string[] = [];
  for (const [path, hash] of after) {
    const old = before.get(path);
    if (old === undefined) lines.push(`+ ${path}`);
    else if (old !== hash) lines.push(`~ ${path}`);
  }
  for (const path of before.keys()) if (!after.has(path)) lines.push(`- ${path}`);
  return lines;
}
