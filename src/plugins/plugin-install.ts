/**
 * Installing and updating plugins: a plugin's version is fetched into a
 * staging folder (copied from its marketplace, or cloned from its own
 * repository), described, and only once the user trusts it moved to
 * `installed/<plugin>@<marketplace>/<pin>/`, pinned to its commit and content
 * hash. A newer version the user has not trusted is recorded as held and
 * never runs.
 */
import { cp, mkdir, rename, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { changedFiles, combinedHash, fileHashes } from "./content-hash.js";
import { cloneAt, headCommit } from "./git.js";
import { readMarketplace, MarketplaceError } from "./marketplace.js";
import type { MarketplaceEntry } from "./marketplace.js";
import { readPluginLayout } from "./plugin-manifest.js";
import type { PluginLayout } from "./plugin-manifest.js";
import { pluginInventory, describeChanges } from "./plugin-inventory.js";
import type { PluginInventory } from "./plugin-inventory.js";
import { pluginKey, pluginsFolder, readPluginState, writePluginState } from "./plugin-state.js";
import type { InstalledPlugin, PinnedVersion } from "./plugin-state.js";

export interface FetchedPlugin {
  key: string;
  entry: MarketplaceEntry;
  /** The staging copy (no `.git`). */
  folder: string;
  commit?: string;
  hash: string;
  files: Map<string, string>;
  layout: PluginLayout;
  inventory: PluginInventory;
  /** Removes the staging copy (after a no, or once pinned). */
  discard(): Promise<void>;
}

export function parsePluginReference(reference: string): { name: string; marketplace: string } {
  const match = /^([^@\s]+)@([^@\s]+)$/.exec(reference);
  if (!match) throw new MarketplaceError(`name the plugin as NAME@MARKETPLACE (cairn plugin marketplace list shows the marketplaces), not "${reference}"`);
  return { name: match[1] ?? "", marketplace: match[2] ?? "" };
}

/** Fetches the marketplace's current version of a plugin into a staging folder. */
export async function fetchPlugin(dataDir: string, name: string, marketplaceName: string): Promise<FetchedPlugin> {
  const state = await readPluginState(dataDir);
  const record = state.marketplaces[marketplaceName];
  if (record === undefined) throw new MarketplaceError(`no marketplace ${marketplaceName}: add it with \`cairn plugin marketplace add SOURCE\``);
  const marketplace = await readMarketplace(record.path);
  const entry = marketplace.plugins.find((candidate) => candidate.name === name);
  if (entry === undefined) throw new MarketplaceError(`marketplace ${marketplaceName} has no plugin ${name} (it has: ${marketplace.plugins.map((plugin) => plugin.name).join(", ") || "none"})`);
  if (entry.source.kind === "unsupported") throw new MarketplaceError(entry.source.why);
  const staging = join(pluginsFolder(dataDir), "staging", randomBytes(6).toString("hex"));
  await mkdir(dirname(staging), { recursive: true, mode: 0o700 });
  const discard = (): Promise<void> => rm(staging, { recursive: true, force: true });
  try {
    let commit: string | undefined;
    if (entry.source.kind === "path") {
      await cp(entry.source.path, staging, { recursive: true, filter: (source) => !source.split("/").includes(".git") });
      commit = record.kind === "git" ? await headCommit(record.path) : undefined;
    } else {
      commit = await cloneAt(entry.source.url, staging, entry.source);
      await rm(join(staging, ".git"), { recursive: true, force: true });
    }
    const layout = await readPluginLayout(staging);
    const files = await fileHashes(staging);
    return { key: pluginKey(name, marketplaceName), entry, folder: staging, ...(commit === undefined ? {} : { commit }), hash: combinedHash(files), files, layout, inventory: await pluginInventory(layout), discard };
  } catch (error) {
    await discard();
    throw error;
  }
}

/** Moves a fetched version to its own folder in `installed/` and returns its pin. */
async function pin(dataDir: string, fetched: FetchedPlugin): Promise<PinnedVersion> {
  const path = join(pluginsFolder(dataDir), "installed", fetched.key, `${fetched.commit?.slice(0, 12) ?? "folder"}-${fetched.hash.slice(0, 12)}`);
  await rm(path, { recursive: true, force: true });
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await rename(fetched.folder, path);
  const version = fetched.layout.version ?? fetched.entry.version;
  return { path, ...(fetched.commit === undefined ? {} : { commit: fetched.commit }), hash: fetched.hash, ...(version === undefined ? {} : { version }) };
}

/** Records a trusted, fetched plugin as installed and enabled. */
export async function installFetched(dataDir: string, fetched: FetchedPlugin): Promise<InstalledPlugin> {
  const pinned = await pin(dataDir, fetched);
  const state = await readPluginState(dataDir);
  const { name, marketplace } = parsePluginReference(fetched.key);
  const installed: InstalledPlugin = { name, marketplace, enabled: true, pinned, installedAt: new Date().toISOString() };
  state.plugins[fetched.key] = installed;
  await writePluginState(dataDir, state);
  return installed;
}

/** What changed between the pinned version and a fetched one: parts, then files. */
export async function describeUpdate(installed: InstalledPlugin, fetched: FetchedPlugin): Promise<string[]> {
  const before = await readPluginLayout(installed.pinned.path).catch(() => undefined);
  if (before === undefined) return ["  (the trusted version's copy is gone: this is everything the new one brings)"];
  const parts = describeChanges(await pluginInventory(before), fetched.inventory);
  const files = changedFiles(await fileHashes(before.root), fetched.files);
  return [...parts, ...(files.length === 0 ? [] : ["  files:", ...files.map((line) => `    ${line}`)])];
}

/** The user trusted the new version: it replaces the pinned one, whose copy is removed. */
export async function acceptUpdate(dataDir: string, installed: InstalledPlugin, fetched: FetchedPlugin): Promise<PinnedVersion> {
  const pinned = await pin(dataDir, fetched);
  const state = await readPluginState(dataDir);
  const current = state.plugins[fetched.key] ?? installed;
  if (current.pinned.path !== pinned.path) await rm(current.pinned.path, { recursive: true, force: true });
  const { held: _held, ...rest } = current;
  state.plugins[fetched.key] = { ...rest, pinned };
  await writePluginState(dataDir, state);
  return pinned;
}

/** A new version the user has not trusted: recorded, never run; the pinned one runs on. */
export async function holdUpdate(dataDir: string, fetched: FetchedPlugin): Promise<void> {
  const state = await readPluginState(dataDir);
  const current = state.plugins[fetched.key];
  if (current === undefined) return;
  const version = fetched.layout.version ?? fetched.entry.version;
  state.plugins[fetched.key] = { ...current, held: { ...(fetched.commit === undefined ? {} : { commit: fetched.commit }), hash: fetched.hash, ...(version === undefined ? {} : { version }) } };
  await writePluginState(dataDir, state);
}

/** The marketplace went back to the trusted version: nothing is held any more. */
export async function clearHeld(dataDir: string, key: string): Promise<void> {
  const state = await readPluginState(dataDir);
  const current = state.plugins[key];
  if (current === undefined) return;
  const { held: _held, ...rest } = current;
  state.plugins[key] = rest;
  await writePluginState(dataDir, state);
}

export async function setEnabled(dataDir: string, key: string, enabled: boolean): Promise<void> {
  const state = await readPluginState(dataDir);
  const current = state.plugins[key];
  if (current === undefined) return;
  state.plugins[key] = { ...current, enabled };
  await writePluginState(dataDir, state);
}

export async function removeInstalled(dataDir: string, key: string): Promise<void> {
  const state = await readPluginState(dataDir);
  delete state.plugins[key];
  await writePluginState(dataDir, state);
  await rm(join(pluginsFolder(dataDir), "installed", key), { recursive: true, force: true });
}
