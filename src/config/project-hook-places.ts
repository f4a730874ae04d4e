/**
 * Where a project keeps hooks outside its `.cairn/config.json`, so an
 * untrusted folder's trust question names them too.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

async function hasEntries(folder: string): Promise<boolean> {
  return (await readdir(folder).catch(() => [])).some((name) => !name.startsWith("."));
}

async function claudeSettingsHaveHooks(file: string): Promise<boolean> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as { hooks?: unknown };
    return typeof parsed.hooks === "object" && parsed.hooks !== null && Object.keys(parsed.hooks).length > 0;
  } catch {
    return false;
  }
}

export async function projectHookPlaces(cwd: string): Promise<string[]> {
  const places: string[] = [];
  for (const folder of [".cairn/hooks", ".clinerules/hooks"]) if (await hasEntries(join(cwd, folder))) places.push(folder);
  for (const file of [".claude/settings.json", ".claude/settings.local.json"]) if (await claudeSettingsHaveHooks(join(cwd, file))) places.push(file);
  return places;
}
