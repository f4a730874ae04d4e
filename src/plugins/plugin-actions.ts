/**
 * The plugin operations behind `cairn plugin ...` and `/plugins`, each
 * returning what to tell the user. Trust is asked through `ask` with the
 * description of what the plugin brings (or what an update changes).
 */
import { readClaudePluginSettings } from "./claude-plugin-settings.js";
import { addMarketplace, refreshMarketplace } from "./marketplace.js";
import { pluginPlaces, forgetLoadedPlugins } from "./plugin-contributions.js";
import type { PluginPlaces } from "./plugin-contributions.js";
import { acceptUpdate, clearHeld, describeUpdate, fetchPlugin, holdUpdate, installFetched, parsePluginReference, removeInstalled, setEnabled } from "./plugin-install.js";
import type { FetchedPlugin } from "./plugin-install.js";
import { describeInventory } from "./plugin-inventory.js";
import { findInstalled, pluginKey, readPluginState } from "./plugin-state.js";
import { MarketplaceError } from "./marketplace.js";

export type AskTrust = (question: string, lines: readonly string[]) => Promise<boolean>;
export type DescribeFetched = (fetched: FetchedPlugin, lines: readonly string[]) => string;

type SessionPlaces = Parameters<typeof pluginPlaces>[0];

function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Installs NAME@MARKETPLACE after the user trusts what it brings; 0 installed, 1 declined. */
export async function installPlugin(settings: SessionPlaces, reference: string, ask: AskTrust, describe: DescribeFetched): Promise<number> {
  const places: PluginPlaces = pluginPlaces(settings);
  const { name, marketplace } = parsePluginReference(reference);
  const state = await readPluginState(places.dataDir);
  if (state.plugins[pluginKey(name, marketplace)] !== undefined) throw new MarketplaceError(`${reference} is already installed; \`cairn plugin update ${reference}\` fetches its new version`);
  if (state.marketplaces[marketplace] === undefined) {
    const known = (await readClaudePluginSettings(places)).marketplaces.get(marketplace);
    if (known === undefined) throw new MarketplaceError(`no marketplace ${marketplace}: add it with \`cairn plugin marketplace add SOURCE\``);
    say(`Adding the marketplace ${marketplace} from ${known.source} (named in ${known.file}).`);
    await addMarketplace(places.dataDir, known.source, places.cwd);
  }
  const fetched = await fetchPlugin(places.dataDir, name, marketplace);
  const lines = describeInventory(fetched.inventory);
  if (!(await ask(describe(fetched, ["It brings:", ...lines]), lines))) {
    await fetched.discard();
    say(`Not installed: ${fetched.key}.`);
    return 1;
  }
  const installed = await installFetched(places.dataDir, fetched);
  forgetLoadedPlugins();
  process.stdout.write(
    `Installed ${fetched.key} (pinned to ${installed.pinned.commit === undefined ? "" : `commit ${installed.pinned.commit.slice(0, 12)}, `}content ${installed.pinned.hash.slice(0, 12)}); it runs from the next task.\n`,
  );
  return 0;
}

/** Fetches a plugin's new version and asks to trust what changed; 0 updated or up to date, 1 held. */
export async function updatePlugin(dataDir: string, reference: string, ask: AskTrust, describe: DescribeFetched): Promise<number> {
  const state = await readPluginState(dataDir);
  const installed = findInstalled(state, reference);
  if (typeof installed === "string") throw new MarketplaceError(installed);
  const record = state.marketplaces[installed.marketplace];
  if (record === undefined) throw new MarketplaceError(`the marketplace ${installed.marketplace} of ${reference} was removed; add it again to update the plugin`);
  await refreshMarketplace(record);
  const fetched = await fetchPlugin(dataDir, installed.name, installed.marketplace);
  if (fetched.hash === installed.pinned.hash) {
    await fetched.discard();
    if (installed.held !== undefined) await clearHeld(dataDir, fetched.key);
    process.stdout.write(`${fetched.key} is up to date (content ${fetched.hash.slice(0, 12)}).\n`);
    return 0;
  }
  const changes = await describeUpdate(installed, fetched);
  const lines = changes.length === 0 ? ["  (only its metadata changed)"] : changes;
  if (!(await ask(describe(fetched, ["What changed since the version you trusted:", ...lines]), lines))) {
    await holdUpdate(dataDir, fetched);
    await fetched.discard();
    say(`Held: ${fetched.key} keeps running the version you trusted (content ${installed.pinned.hash.slice(0, 12)}).`);
    return 1;
  }
  const pinned = await acceptUpdate(dataDir, installed, fetched);
  forgetLoadedPlugins();
  process.stdout.write(`Updated ${fetched.key} (pinned to ${pinned.commit === undefined ? "" : `commit ${pinned.commit.slice(0, 12)}, `}content ${pinned.hash.slice(0, 12)}); it runs from the next task.\n`);
  return 0;
}

/** Fetches marketplaces' new commits; each installed plugin that changed is held until trusted. */
export async function updateMarketplaces(dataDir: string, name: string | undefined): Promise<string[]> {
  const state = await readPluginState(dataDir);
  const names = name === undefined ? Object.keys(state.marketplaces) : [name];
  const lines: string[] = [];
  for (const marketplace of names) {
    const record = state.marketplaces[marketplace];
    if (record === undefined) throw new MarketplaceError(`no marketplace ${marketplace} (cairn plugin marketplace list shows them)`);
    const commit = await refreshMarketplace(record);
    lines.push(`Marketplace ${marketplace}: ${commit === undefined ? "a folder, read as it is" : `at commit ${commit.slice(0, 12)}`}.`);
    for (const installed of Object.values(state.plugins).filter((plugin) => plugin.marketplace === marketplace)) {
      const fetched = await fetchPlugin(dataDir, installed.name, marketplace).catch((error: unknown) => error as Error);
      if (fetched instanceof Error) {
        lines.push(`  ${pluginKey(installed.name, marketplace)}: ${fetched.message}`);
        continue;
      }
      if (fetched.hash !== installed.pinned.hash) {
        await holdUpdate(dataDir, fetched);
        lines.push(`  ${fetched.key} changed (content ${fetched.hash.slice(0, 12)}): held, the version you trusted keeps running; \`cairn plugin update ${fetched.key}\` shows what changed and asks.`);
      }
      await fetched.discard();
    }
  }
  return lines;
}

export async function switchPlugin(dataDir: string, reference: string, enabled: boolean): Promise<string> {
  const installed = findInstalled(await readPluginState(dataDir), reference);
  if (typeof installed === "string") throw new MarketplaceError(installed);
  const key = pluginKey(installed.name, installed.marketplace);
  await setEnabled(dataDir, key, enabled);
  forgetLoadedPlugins();
  return `${enabled ? "Enabled" : "Disabled"} ${key}: ${enabled ? "its parts run" : "none of its parts run"} from the next task.`;
}

export async function removePlugin(dataDir: string, reference: string): Promise<string> {
  const installed = findInstalled(await readPluginState(dataDir), reference);
  if (typeof installed === "string") throw new MarketplaceError(installed);
  const key = pluginKey(installed.name, installed.marketplace);
  await removeInstalled(dataDir, key);
  forgetLoadedPlugins();
  return `Removed ${key} and its copy.`;
}

/** `cairn plugin list` and `/plugins`: each installed plugin, its pin, whether it runs, and updates held. */
export async function pluginListing(settings: SessionPlaces, json: boolean): Promise<string> {
  const places = pluginPlaces(settings);
  const state = await readPluginState(places.dataDir);
  const claude = await readClaudePluginSettings(places);
  if (json) return `${JSON.stringify({ plugins: state.plugins, marketplaces: state.marketplaces }, null, 2)}\n`;
  const lines: string[] = [];
  for (const [key, plugin] of Object.entries(state.plugins)) {
    const off = claude.enabled.get(key)?.on === false ? claude.enabled.get(key)?.file : undefined;
    const status = !plugin.enabled ? "disabled" : off !== undefined ? `off (enabledPlugins in ${off})` : "enabled";
    const pin = `${plugin.pinned.commit === undefined ? "" : `commit ${plugin.pinned.commit.slice(0, 12)}, `}content ${plugin.pinned.hash.slice(0, 12)}`;
    lines.push(`${key}${plugin.pinned.version === undefined ? "" : ` ${plugin.pinned.version}`}  ${status}  (${pin})`);
    if (plugin.held !== undefined)
      lines.push(`  update held: content ${plugin.held.hash.slice(0, 12)}${plugin.held.version === undefined ? "" : ` (${plugin.held.version})`} is not trusted yet; \`cairn plugin update ${key}\` shows what changed`);
  }
  for (const [key, { on, file }] of claude.enabled) if (on && state.plugins[key] === undefined) lines.push(`${key}  not installed (enabled in ${file}): cairn plugin install ${key}`);
  return lines.length === 0 ? "No plugins installed. Add a marketplace (cairn plugin marketplace add SOURCE), then: cairn plugin install NAME@MARKETPLACE\n" : `${lines.join("\n")}\n`;
}
