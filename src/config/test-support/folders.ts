import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { resolveSettings } from "../index.js";
import type { CliFlags } from "../index.js";

/** Claude Code's settings files: the managed one, the project's two, the user's. */
export type ClaudeFile = "managed" | "local" | "project" | "user";

export interface ConfigFolders {
  root: string;
  /** Where `config.json` and `trusted-folders.json` of the user live. */
  userConfigDir: string;
  /** Claude Code's user folder (`~/.claude` of this test). */
  claudeUserDir: string;
  /** Claude Code's managed settings file of this test (absent until written). */
  managedSettingsPath: string;
  /** A project folder (the workspace). */
  project: string;
  writeUserConfig(config: unknown): Promise<void>;
  writeProjectConfig(config: unknown): Promise<void>;
  /** Writes one of Claude Code's settings files (JSON, or text as given). */
  writeClaude(file: ClaudeFile, content: unknown): Promise<string>;
  writeRaw(path: string, text: string): Promise<void>;
  /** Resolves settings in the project, with only this test's files (never the machine's own ~/.claude or managed settings). */
  resolve(options?: { flags?: CliFlags; env?: NodeJS.ProcessEnv; trust?: boolean }): ReturnType<typeof resolveSettings>;
  cleanup(): Promise<void>;
}

export async function createConfigFolders(): Promise<ConfigFolders> {
  const root = await mkdtemp(join(tmpdir(), "cairn-config-"));
  const userConfigDir = join(root, "xdg", "cairn");
  const claudeUserDir = join(root, "home", ".claude");
  const managedSettingsPath = join(root, "etc", "claude-code", "managed-settings.json");
  const project = join(root, "project");
  await mkdir(userConfigDir, { recursive: true });
  await mkdir(join(project, ".cairn"), { recursive: true });
  const claudePaths: Record<ClaudeFile, string> = {
    managed: managedSettingsPath,
    local: join(project, ".claude", "settings.local.json"),
    project: join(project, ".claude", "settings.json"),
    user: join(claudeUserDir, "settings.json"),
  };
  return {
    root,
    userConfigDir,
    claudeUserDir,
    managedSettingsPath,
    project,
    writeUserConfig: (config) => writeFile(join(userConfigDir, "config.json"), JSON.stringify(config)),
    writeProjectConfig: (config) => writeFile(join(project, ".cairn", "config.json"), JSON.stringify(config)),
    writeClaude: async (file, content) => {
      const path = claudePaths[file];
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
      return path;
    },
    writeRaw: (path, text) => writeFile(path, text),
    resolve: (options = {}) =>
      resolveSettings({
        flags: options.flags ?? {},
        env: options.env ?? {},
        cwd: project,
        userConfigDir,
        claudeUserDir,
        managedSettingsPath,
        ...(options.trust === undefined ? {} : { trust: options.trust }),
      }),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
