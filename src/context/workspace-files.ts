import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";

/** Files larger than this are not re-read whole after a summary (the cap applies anyway). */
const largestFile = 2 * 1024 * 1024;

/** Reads a file the model named (relative to the workspace) for re-injection after a summary. */
export function workspaceFileReader(workspace: string): (path: string) => Promise<string | undefined> {
  return async (path) => {
    const full = resolve(workspace, path);
    try {
      const info = await stat(full);
      if (!info.isFile() || info.size > largestFile) return undefined;
      const text = await readFile(full, "utf8");
      return text.includes("\u0000") ? undefined : text;
    } catch {
      return undefined;
    }
  };
}
