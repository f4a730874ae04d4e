/**
 * What cairn keeps of plugins in its data folder (`<data>/plugins/`):
 * `state.json` (the marketplaces added, the plugins installed with the commit
 * and content hash they are pinned to), `marketplaces/<name>/` (clones of git
 * marketplaces) and `installed/<plugin>@<marketplace>/<pin>/` (each installed
 * version's own copy, which is what runs).
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface MarketplaceRecord {
  /** As the user gave it: a folder, a git repository's path or URL. */
  source: string;
  /** `folder`: read where it is; `git`: cloned into the data folder. */
  kind: "folder" | "git";
  /** The folder holding `.claude-plugin/marketplace.json`. */
  path: string;
  addedAt: string;
}

export interface PinnedVersion {
  /** The folder that runs (a copy in the data folder). */
  path: string;
  /** The git commit it came from, when its source is a git repository. */
  commit?: string;
  /** sha256 over its files' paths and contents. */
  hash: string;
  version?: string;
}

export interface InstalledPlugin {
  name: string;
  marketplace: string;
  enabled: boolean;
  pinned: PinnedVersion;
  /** A newer version found by an update, not trusted yet: the pinned one keeps running. */
  held?: Omit<PinnedVersion, "path">;
  installedAt: string;
}

export interface PluginState {
  version: 1;
  marketplaces: Record<string, MarketplaceRecord>;
  /** By `name@marketplace`. */
  plugins: Record<string, InstalledPlugin>;
}

export const pluginsFolder = (dataDir: string): string => join(dataDir, "plugins");
const stateFile = (dataDir: string): string => join(pluginsFolder(dataDir), "state.json");

export const pluginKey = (name: string, marketplace: string): string => `${name}@${marketplace}`;

export async function readPluginState(dataDir: string): Promise<PluginState> {
  try {
    const parsed = JSON.parse(await readFile(stateFile(dataDir), "utf8")) as Partial<PluginState>;
    return { version: 1, marketplaces: parsed.marketplaces ?? {}, plugins: parsed.plugins ?? {} };
  } catch {
    return { version: 1, marketplaces: {}, plugins: {} };
  }
}

/** Written whole, through a temporary file, readable by the user only. */
export async function writePluginState(dataDir: string, state: PluginState): Promise<void> {
  await mkdir(pluginsFolder(dataDir), { recursive: true, mode: 0o700 });
  const file = stateFile(dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

/** The plugin a user names: `name@marketplace`, or `name` when only one marketplace has it installed. */
export function findInstalled(state: PluginState, reference: string): InstalledPlugin | string {
  const exact = state.plugins[reference];
  if (exact !== undefined) return exact;
  const named = Object.values(state.plugins).filter((plugin) => plugin.name === reference);
  if (named.length === 1 && named[0] !== undefined) return named[0];
  if (named.length > 1) return `${reference} is installed from several marketplaces: name one (${named.map((plugin) => pluginKey(plugin.name, plugin.marketplace)).join(", ")})`;
  return `no plugin ${reference} is installed (cairn plugin list shows them)`;
}
