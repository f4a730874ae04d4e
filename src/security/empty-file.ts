/** An empty read-only file that the sandbox binds over files it hides (they then read as empty). */
import { chmodSync, mkdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function emptyFileIn(folder: string): string {
  const path = join(folder, "empty");
  try {
    if (statSync(path).size === 0) return path;
  } catch {
    // made below
  }
  mkdirSync(folder, { recursive: true });
  const temporary = `${path}.${process.pid}`;
  writeFileSync(temporary, "");
  chmodSync(temporary, 0o444);
  // A rename is atomic: two cairns starting at once both end with an empty file.
  renameSync(temporary, path);
  return path;
}
