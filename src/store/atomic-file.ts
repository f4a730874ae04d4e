import { open, rename, unlink } from "node:fs/promises";
import { randomBytes } from "node:crypto";

/**
 * Replaces `path` with `text` so that readers see either the old file or the new
 * one, never a mix: write a temporary file beside it, sync it, rename it over.
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(temporary, "w");
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}
