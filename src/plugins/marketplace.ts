/**
 * Marketplaces in Claude Code's format: `.claude-plugin/marketplace.json`
 * (`name`, `owner`, `plugins[]` with `name`, `source`, `version`,
 * `description`) in a folder or a git repository. A git marketplace (a URL
 * or a local repository) is cloned into cairn's data folder; a plain folder
 * is read where it is.
 */
import { mkdir, readFile, rename, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { cloneAt, isGitSource, pullClone } from "./git.js";
import { pluginsFolder, readPluginState, writePluginState } from "./plugin-state.js";
import type { MarketplaceRecord } from "./plugin-state.js";

/** Where a plugin of a marketplace comes from. */
export type PluginSource = { kind: "path"; path: string } | { kind: "git"; url: string; ref?: string; sha?: string } | { kind: "unsupported"; why: string };

export interface MarketplaceEntry {
  name: string;
  source: PluginSource;
  version?: string;
  description?: string;
}

export interface Marketplace {
  name: string;
  owner?: string;
  plugins: MarketplaceEntry[];
}

export class MarketplaceError extends Error {}

const namePattern = /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const optionalText = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);

function entrySource(raw: unknown, folder: string, pluginRoot: string | undefined, where: string): PluginSource {
  if (typeof raw === "string") {
    const base = raw.startsWith("./") || raw.startsWith("../") || pluginRoot === undefined ? folder : resolve(folder, pluginRoot);
    const path = resolve(base, raw);
    if (path !== folder && !path.startsWith(`${folder}/`)) throw new MarketplaceError(`${where}: source ${raw} leaves the marketplace's folder`);
    return { kind: "path", path };
  }
  if (isRecord(raw)) {
    const pin = { ...(optionalText(raw["ref"]) === undefined ? {} : { ref: raw["ref"] as string }), ...(optionalText(raw["sha"]) === undefined ? {} : { sha: raw["sha"] as string }) };
    if (raw["source"] === "github" && typeof raw["repo"] === "string") return { kind: "git", url: `https://github.com/${raw["repo"]}.git`, ...pin };
    if ((raw["source"] === "url" || raw["source"] === "git") && typeof raw["url"] === "string") return { kind: "git", url: raw["url"], ...pin };
  }
  // Claude Code's other kinds (npm, ...): the entry is listed, and installing it says why it cannot be.
  if (isRecord(raw) && typeof raw["source"] === "string") return { kind: "unsupported", why: `${where}: cairn installs plugins from a path, a GitHub repository or a git URL, not from a "${raw["source"]}" source` };
  throw new MarketplaceError(`${where}: "source" must be a relative path ("./plugins/name"), {"source": "github", "repo": "owner/name"} or {"source": "url", "url": "..."}`);
}

/** Reads `<folder>/.claude-plugin/marketplace.json`. */
export async function readMarketplace(folder: string): Promise<Marketplace> {
  const file = join(folder, ".claude-plugin", "marketplace.json");
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new MarketplaceError((error as NodeJS.ErrnoException).code === "ENOENT" ? `${folder} is not a marketplace: it has no .claude-plugin/marketplace.json` : `${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(raw)) throw new MarketplaceError(`${file} must hold a JSON object`);
  const name = optionalText(raw["name"]);
  if (name === undefined || !namePattern.test(name)) throw new MarketplaceError(`${file}: "name" is required (letters, digits, ".", "_" and "-")`);
  if (!Array.isArray(raw["plugins"])) throw new MarketplaceError(`${file}: "plugins" must be a list`);
  const metadata = isRecord(raw["metadata"]) ? raw["metadata"] : {};
  const pluginRoot = optionalText(metadata["pluginRoot"]);
  const owner = isRecord(raw["owner"]) ? optionalText(raw["owner"]["name"]) : undefined;
  const plugins = (raw["plugins"] as unknown[]).map((entry, index): MarketplaceEntry => {
    const where = `${file}: plugins[${index}]`;
    // The name becomes a folder's name in the data folder: no path in it.
    if (!isRecord(entry) || typeof entry["name"] !== "string" || !namePattern.test(entry["name"])) throw new MarketplaceError(`${where} needs a "name" (letters, digits, ".", "_" and "-")`);
    const version = optionalText(entry["version"]);
    const description = optionalText(entry["description"]);
    return {
      name: entry["name"],
      source: entrySource(entry["source"], folder, pluginRoot, where),
      ...(version === undefined ? {} : { version }),
      ...(description === undefined ? {} : { description }),
    };
  });
  return { name, ...(owner === undefined ? {} : { owner }), plugins };
}

const marketplacesFolder = (dataDir: string): string => join(pluginsFolder(dataDir), "marketplaces");

/** Adds a marketplace (cloning a git one into the data folder); returns its name and what it offers. */
export async function addMarketplace(dataDir: string, source: string, cwd: string): Promise<{ record: MarketplaceRecord; marketplace: Marketplace }> {
  const local = /^[a-z][a-z0-9+.-]*:\/\//i.test(source) || /^[\w.-]+@[\w.-]+:/.test(source) ? undefined : resolve(cwd, source);
  const state = await readPluginState(dataDir);
  let record: MarketplaceRecord;
  let marketplace: Marketplace;
  if (await isGitSource(local ?? source)) {
    await mkdir(marketplacesFolder(dataDir), { recursive: true, mode: 0o700 });
    const temporary = join(marketplacesFolder(dataDir), `.adding-${randomBytes(4).toString("hex")}`);
    try {
      await cloneAt(local ?? source, temporary);
      marketplace = await readMarketplace(temporary);
      if (state.marketplaces[marketplace.name] !== undefined)
        throw new MarketplaceError(`a marketplace named ${marketplace.name} is already added (from ${state.marketplaces[marketplace.name]?.source}); remove it first`);
      const path = join(marketplacesFolder(dataDir), marketplace.name);
      await rm(path, { recursive: true, force: true });
      await rename(temporary, path);
      record = { source: local ?? source, kind: "git", path, addedAt: new Date().toISOString() };
    } finally {
      await rm(temporary, { recursive: true, force: true });
    }
  } else {
    if (local === undefined) throw new MarketplaceError(`${source} is neither a folder nor a git repository`);
    marketplace = await readMarketplace(local);
    if (state.marketplaces[marketplace.name] !== undefined) throw new MarketplaceError(`a marketplace named ${marketplace.name} is already added (from ${state.marketplaces[marketplace.name]?.source}); remove it first`);
    record = { source: local, kind: "folder", path: local, addedAt: new Date().toISOString() };
  }
  state.marketplaces[marketplace.name] = record;
  await writePluginState(dataDir, state);
  return { record, marketplace };
}

/** Brings a git marketplace's clone up to date (a folder is read as it is); returns the commit, if any. */
export async function refreshMarketplace(record: MarketplaceRecord): Promise<string | undefined> {
  return record.kind === "git" ? pullClone(record.path) : undefined;
}

export async function removeMarketplace(dataDir: string, name: string): Promise<MarketplaceRecord> {
  const state = await readPluginState(dataDir);
  const record = state.marketplaces[name];
  if (record === undefined) throw new MarketplaceError(`no marketplace ${name} (cairn plugin marketplace list shows them)`);
  const installed = Object.entries(state.plugins).filter(([, plugin]) => plugin.marketplace === name);
  if (installed.length > 0) throw new MarketplaceError(`plugins from ${name} are installed (${installed.map(([key]) => key).join(", ")}): remove them first`);
  delete state.marketplaces[name];
  await writePluginState(dataDir, state);
  if (record.kind === "git") await rm(record.path, { recursive: true, force: true });
  return record;
}
