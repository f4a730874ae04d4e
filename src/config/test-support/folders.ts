import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ConfigFolders {
  root: string;
  /** Where `config.json` and `trusted-folders.json` of the user live. */
  userConfigDir: string;
  /** A project folder (the workspace). */
  project: string;
  writeUserConfig(config: unknown): Promise<void>;
  writeProjectConfig(config: unknown): Promise<void>;
  writeRaw(path: string, text: string): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createConfigFolders(): Promise<ConfigFolders> {
  const root = await mkdtemp(join(tmpdir(), "cairn-config-"));
  const userConfigDir = join(root, "xdg", "cairn");
  const project = join(root, "project");
  await mkdir(userConfigDir, { recursive: true });
  await mkdir(join(project, ".cairn"), { recursive: true });
  return {
    root,
    userConfigDir,
    project,
    writeUserConfig: (config) => writeFile(join(userConfigDir, "config.json"), JSON.stringify(config)),
    writeProjectConfig: (config) => writeFile(join(project, ".cairn", "config.json"), JSON.stringify(config)),
    writeRaw: (path, text) => writeFile(path, text),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
