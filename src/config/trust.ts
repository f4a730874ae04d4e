/**
 * Folders the user has trusted. Until then a project's `.cairn/config.json`
 * cannot switch on auto-approval, hooks or MCP servers: a cloned repository
 * must not be able to run programs on the user's machine by itself.
 */
import { mkdir, readFile, realpath, rename, writeFile } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { ConfigError } from "./errors.js";
import { defaultUserConfigDir } from "./paths.js";

interface TrustFile {
  version: 1;
  folders: string[];
}

export function trustStorePath(userConfigDir: string): string {
  return join(userConfigDir, "trusted-folders.json");
}

async function readTrustFile(file: string): Promise<TrustFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, folders: [] };
    throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as Partial<TrustFile>;
    if (Array.isArray(parsed.folders) && parsed.folders.every((folder) => typeof folder === "string")) {
      return { version: 1, folders: parsed.folders };
    }
  } catch {
    // reported below
  }
  throw new ConfigError(`${file} is damaged (expected {"version": 1, "folders": [...]}). Fix it, or delete it to trust folders again.`);
}

async function canonical(folder: string): Promise<string> {
  try {
    return await realpath(folder);
  } catch (error) {
    throw new ConfigError(`cannot trust ${folder}: ${(error as Error).message}`);
  }
}

function covers(trusted: string, folder: string): boolean {
  return folder === trusted || folder.startsWith(trusted.endsWith(sep) ? trusted : trusted + sep);
}

/** Whether `folder` (or a folder above it) was trusted. Compared by real path, so links cannot fool it. */
export async function isTrusted(folder: string, userConfigDir: string = defaultUserConfigDir()): Promise<boolean> {
  const real = await canonical(folder);
  const store = await readTrustFile(trustStorePath(userConfigDir));
  return store.folders.some((trusted) => covers(trusted, real));
}

/** Records `folder` as trusted; written to a temporary file and renamed, so the store is never half written. */
export async function trustFolder(folder: string, userConfigDir: string = defaultUserConfigDir()): Promise<void> {
  const real = await canonical(folder);
  const file = trustStorePath(userConfigDir);
  const store = await readTrustFile(file);
  if (store.folders.includes(real)) return;
  store.folders.push(real);
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}
