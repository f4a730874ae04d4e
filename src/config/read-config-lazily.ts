import { access } from "node:fs/promises";
import type { LoadedConfigFile } from "./config-file.js";

/**
 * `readConfigFile`, but the schema (zod, the largest module cairn loads) is
 * imported only when the file exists: without config files a run starts
 * without it (issue 18).
 */
export async function readConfigFileLazily(file: string): Promise<LoadedConfigFile | undefined> {
  const exists = await access(file).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== "ENOENT",
  );
  if (!exists) return undefined;
  const { readConfigFile } = await import("./config-file.js");
  return readConfigFile(file);
}
