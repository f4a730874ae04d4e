/**
 * Project hooks run programs from a repository, so they run only in a trusted
 * folder, and only as they were when trusted: the fingerprints of the
 * project's hooks are remembered, and a hook that is new or changed since is
 * held back (and shown) until the user trusts the hooks again
 * (`cairn hooks trust`).
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { HookDefinition } from "./hook-definition.js";

interface HookTrustFile {
  version: 1;
  /** Real folder path to the fingerprints of its trusted project hooks. */
  folders: Record<string, string[]>;
}

export type HeldHook = { hook: HookDefinition; why: "folder not trusted" | "changed since trusted" };

export interface TrustedHooks {
  runnable: HookDefinition[];
  held: HeldHook[];
}

export function hookTrustPath(userConfigDir: string): string {
  return join(userConfigDir, "trusted-hooks.json");
}

async function readStore(file: string): Promise<HookTrustFile> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as Partial<HookTrustFile>;
    if (typeof parsed.folders === "object" && parsed.folders !== null) return { version: 1, folders: parsed.folders };
  } catch {
    // missing or damaged: nothing trusted yet, which only holds hooks back
  }
  return { version: 1, folders: {} };
}

async function writeStore(file: string, store: HookTrustFile): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

/** Records the project's hooks as they are now as trusted. */
export async function trustProjectHooks(options: { folder: string; userConfigDir: string; hooks: readonly HookDefinition[] }): Promise<void> {
  const file = hookTrustPath(options.userConfigDir);
  const store = await readStore(file);
  store.folders[options.folder] = [...new Set(options.hooks.filter((hook) => hook.scope === "project").map((hook) => hook.fingerprint))];
  await writeStore(file, store);
}

/**
 * Splits hooks into those that may run and those held back. The first time a
 * trusted folder's hooks are seen, trusting the folder covers them and they
 * are recorded; after that, anything new or changed waits for `cairn hooks trust`.
 */
export async function checkHookTrust(options: { folder: string; folderTrusted: boolean; userConfigDir: string; hooks: readonly HookDefinition[] }): Promise<TrustedHooks> {
  const user = options.hooks.filter((hook) => hook.scope === "user");
  const project = options.hooks.filter((hook) => hook.scope === "project");
  if (project.length === 0) return { runnable: user, held: [] };
  if (!options.folderTrusted) return { runnable: user, held: project.map((hook) => ({ hook, why: "folder not trusted" })) };
  const store = await readStore(hookTrustPath(options.userConfigDir));
  const known = store.folders[options.folder];
  if (known === undefined) {
    await trustProjectHooks({ folder: options.folder, userConfigDir: options.userConfigDir, hooks: project });
    return { runnable: [...user, ...project], held: [] };
  }
  const runnable = [...user];
  const held: HeldHook[] = [];
  for (const hook of project) {
    if (known.includes(hook.fingerprint)) runnable.push(hook);
    else held.push({ hook, why: "changed since trusted" });
  }
  return { runnable, held };
}
