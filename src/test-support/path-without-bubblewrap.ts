import { existsSync, readdirSync, symlinkSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";

/**
 * A PATH folder with links to every program of this machine but bubblewrap:
 * the sandbox cannot run there, as on a machine without the package.
 */
export async function pathWithoutBubblewrap(folder: string): Promise<string> {
  await mkdir(folder, { recursive: true });
  for (const source of ["/usr/local/bin", "/usr/bin", "/bin"]) {
    if (!existsSync(source)) continue;
    for (const name of readdirSync(source)) {
      if (name === "bwrap" || existsSync(join(folder, name))) continue;
      try {
        symlinkSync(join(source, name), join(folder, name));
      } catch {
        continue;
      }
    }
  }
  return folder;
}
