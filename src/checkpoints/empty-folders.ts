import { rmdir } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";

/** Removes the folders a removed file leaves empty, up to (not including) the workspace. */
export async function removeEmptyParents(workTree: string, path: string): Promise<void> {
  let folder = dirname(join(workTree, path));
  while (folder !== workTree && relative(workTree, folder).split(sep)[0] !== "..") {
    try {
      await rmdir(folder);
    } catch {
      return; // not empty (or already gone)
    }
    folder = dirname(folder);
  }
}
