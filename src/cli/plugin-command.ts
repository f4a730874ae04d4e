/**
 * `cairn plugin ...`: Claude Code's plugins and marketplaces (docs/plugins.md).
 * `marketplace add|list|remove|update`, `install NAME@MARKETPLACE`, `list`,
 * `enable`, `disable`, `remove`, `update`. Installing or updating shows what
 * the plugin brings and asks; `--yes` answers only with `--trust`.
 */
import { CommanderError } from "commander";
import type { Command } from "commander";
import { commandSettings } from "./command-settings.js";
import type { ResolvedSettings } from "../config/index.js";
import type { FetchedPlugin } from "../plugins/plugin-install.js";

interface TrustFlags {
  yes?: boolean;
  trust?: boolean;
  cwd?: string;
}

function fail(message: string, status = 2): never {
  process.stderr.write(`cairn: ${message}\n`);
  throw new CommanderError(status, "cairn.plugin", message);
}

async function settingsFor(options: { cwd?: string }): Promise<ResolvedSettings> {
  const settings = await commandSettings({ cwd: options.cwd });
  if (settings === 2) throw new CommanderError(2, "cairn.plugin", "the settings could not be read");
  return settings;
}

/** Runs a plugin operation; its known errors are the user's to fix (status 2), not crashes. */
async function guarded<T>(run: () => Promise<T>): Promise<T> {
  const [{ MarketplaceError }, { PluginManifestError }, { PluginGitError }] = await Promise.all([import("../plugins/marketplace.js"), import("../plugins/plugin-manifest.js"), import("../plugins/git.js")]);
  try {
    return await run();
  } catch (error) {
    if (error instanceof MarketplaceError || error instanceof PluginManifestError || error instanceof PluginGitError) fail(error.message);
    throw error;
  }
}

/** One line read from stdin (a terminal, or a pipe); none (stdin closed): no. */
function checkTrustFlags(flags: TrustFlags): void {
  if (flags.yes === true && flags.trust !== true) fail("--yes trusts a plugin (its hooks and MCP servers run programs) only with --trust as well; or answer the question");
}

async function askYesNo(question: string, flags: TrustFlags): Promise<boolean> {
  if (flags.yes === true) {
    process.stderr.write(`${question} yes (--yes --trust)\n`);
    return true;
  }
  const { createInterface } = await import("node:readline");
  const lines = createInterface({ input: process.stdin, terminal: false });
  process.stderr.write(`${question} [y/N] `);
  const answer = await new Promise<string | undefined>((resolvePromise) => {
    lines.once("line", (line) => resolvePromise(line));
    lines.once("close", () => resolvePromise(undefined));
  });
  lines.close();
  if (answer === undefined) process.stderr.write("\n");
  return answer !== undefined && /^\s*y(es)?\s*$/i.test(answer);
}

function describeFetched(fetched: FetchedPlugin, lines: readonly string[]): string {
  const version = fetched.layout.version ?? fetched.entry.version;
  const pin = [`${fetched.commit === undefined ? "" : `commit ${fetched.commit.slice(0, 12)}, `}content ${fetched.hash.slice(0, 12)}`];
  const description = fetched.layout.description ?? fetched.entry.description;
  return [`Plugin ${fetched.key}${version === undefined ? "" : ` ${version}`} (${pin.join("")})${description === undefined ? "" : `: ${description}`}`, ...lines].join("\n");
}

const trustWarning = "Its hooks and MCP servers run programs on your machine (in the sandbox when it is on).";

export function registerPluginCommands(program: Command): void {
  const plugin = program.command("plugin").description("Claude Code plugins: marketplaces, install, list, enable, disable, update, remove");
  const marketplace = plugin.command("marketplace").description("the marketplaces plugins are installed from");

  marketplace
    .command("add <source>")
    .description("add a marketplace: a folder, or a git repository (its path or URL), cloned into cairn's data folder")
    .option("--cwd <dir>", "project folder")
    .action(async (source: string, options: { cwd?: string }) => {
      const settings = await settingsFor(options);
      const { addMarketplace } = await import("../plugins/marketplace.js");
      const { marketplace: added, record } = await guarded(() => addMarketplace(settings.dataDir, source, settings.cwd));
      process.stdout.write(`Added marketplace ${added.name} (${record.kind === "git" ? `cloned into ${record.path}` : record.path}) with ${added.plugins.length} plugin${added.plugins.length === 1 ? "" : "s"}:\n`);
      for (const entry of added.plugins) process.stdout.write(`  ${entry.name}${entry.version === undefined ? "" : ` ${entry.version}`}${entry.description === undefined ? "" : `  ${entry.description}`}\n`);
      process.stdout.write(`Install one with: cairn plugin install NAME@${added.name}\n`);
    });

  marketplace
    .command("list")
    .description("the marketplaces added, and those Claude Code's settings name")
    .option("--cwd <dir>", "project folder")
    .action(async (options: { cwd?: string }) => {
      const settings = await settingsFor(options);
      const [{ readPluginState }, { readMarketplace }, { readClaudePluginSettings }, { pluginPlaces }] = await Promise.all([
        import("../plugins/plugin-state.js"),
        import("../plugins/marketplace.js"),
        import("../plugins/claude-plugin-settings.js"),
        import("../plugins/plugin-contributions.js"),
      ]);
      const state = await readPluginState(settings.dataDir);
      const claude = await readClaudePluginSettings(pluginPlaces(settings));
      for (const [name, record] of Object.entries(state.marketplaces)) {
        const offered = await readMarketplace(record.path).then(
          (found) => `${found.plugins.length} plugin${found.plugins.length === 1 ? "" : "s"}: ${found.plugins.map((entry) => entry.name).join(", ")}`,
          (error: unknown) => `unreadable: ${error instanceof Error ? error.message : String(error)}`,
        );
        process.stdout.write(`${name}  ${record.kind === "git" ? "git" : "folder"} ${record.source}  (${offered})\n`);
      }
      for (const [name, known] of claude.marketplaces) {
        if (state.marketplaces[name] === undefined) process.stdout.write(`${name}  ${known.source}  (named in ${known.file}; not added: cairn plugin install NAME@${name} adds it)\n`);
      }
      if (Object.keys(state.marketplaces).length === 0 && claude.marketplaces.size === 0) process.stdout.write("No marketplaces. Add one with: cairn plugin marketplace add SOURCE\n");
    });

  marketplace
    .command("remove <name>")
    .description("remove a marketplace (its plugins must be removed first)")
    .option("--cwd <dir>", "project folder")
    .action(async (name: string, options: { cwd?: string }) => {
      const settings = await settingsFor(options);
      const { removeMarketplace } = await import("../plugins/marketplace.js");
      await guarded(() => removeMarketplace(settings.dataDir, name));
      process.stdout.write(`Removed marketplace ${name}.\n`);
    });

  marketplace
    .command("update [name]")
    .description("fetch a marketplace's new commits (every one without a name); a changed plugin is held until you trust it with cairn plugin update")
    .option("--cwd <dir>", "project folder")
    .action(async (name: string | undefined, options: { cwd?: string }) => {
      const settings = await settingsFor(options);
      const { updateMarketplaces } = await import("../plugins/plugin-actions.js");
      for (const line of await guarded(() => updateMarketplaces(settings.dataDir, name))) process.stdout.write(`${line}\n`);
    });

  plugin
    .command("install <plugin>")
    .description("install NAME@MARKETPLACE: shows what it brings and asks you to trust it")
    .option("-y, --yes", "answer yes without asking (only with --trust)")
    .option("--trust", "with --yes: trust the plugin without seeing the question")
    .option("--cwd <dir>", "project folder")
    .action(async (reference: string, flags: TrustFlags) => {
      checkTrustFlags(flags);
      const settings = await settingsFor(flags);
      const { installPlugin } = await import("../plugins/plugin-actions.js");
      process.exitCode = await guarded(() => installPlugin(settings, reference, (question) => askYesNo(`${question}\n${trustWarning}\nInstall and trust it?`, flags), describeFetched));
    });

  plugin
    .command("update <plugin>")
    .description("fetch a plugin's new version, show what changed, and ask you to trust it (until then the trusted version runs)")
    .option("-y, --yes", "answer yes without asking (only with --trust)")
    .option("--trust", "with --yes: trust the new version without seeing the question")
    .option("--cwd <dir>", "project folder")
    .action(async (reference: string, flags: TrustFlags) => {
      checkTrustFlags(flags);
      const settings = await settingsFor(flags);
      const { updatePlugin } = await import("../plugins/plugin-actions.js");
      process.exitCode = await guarded(() => updatePlugin(settings.dataDir, reference, (question) => askYesNo(`${question}\n${trustWarning}\nTrust this version?`, flags), describeFetched));
    });

  plugin
    .command("list")
    .description("the installed plugins: version, pin, enabled or not, updates held")
    .option("--json", "print them as JSON")
    .option("--cwd <dir>", "project folder")
    .action(async (options: { json?: boolean; cwd?: string }) => {
      const settings = await settingsFor(options);
      const { pluginListing } = await import("../plugins/plugin-actions.js");
      process.stdout.write(await pluginListing(settings, options.json === true));
    });

  for (const [command, enabled] of [
    ["enable", true],
    ["disable", false],
  ] as const) {
    plugin
      .command(`${command} <plugin>`)
      .description(enabled ? "run an installed plugin's parts again" : "keep an installed plugin but run none of its parts")
      .option("--cwd <dir>", "project folder")
      .action(async (reference: string, options: { cwd?: string }) => {
        const settings = await settingsFor(options);
        const { switchPlugin } = await import("../plugins/plugin-actions.js");
        process.stdout.write(`${await guarded(() => switchPlugin(settings.dataDir, reference, enabled))}\n`);
      });
  }

  plugin
    .command("remove <plugin>")
    .alias("uninstall")
    .description("uninstall a plugin and delete its copy")
    .option("--cwd <dir>", "project folder")
    .action(async (reference: string, options: { cwd?: string }) => {
      const settings = await settingsFor(options);
      const { removePlugin } = await import("../plugins/plugin-actions.js");
      process.stdout.write(`${await guarded(() => removePlugin(settings.dataDir, reference))}\n`);
    });
}
