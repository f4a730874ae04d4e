/**
 * Claude Code plugins through the real bin/cairn and the real pieces: a
 * marketplace that is a real git repository, installed with trust, an update
 * held until trusted, disable and remove. Each part of a plugin used in a
 * sandboxed run is the journey's (src/journeys/claude-code-user.test.ts).
 * Runs bin/cairn (dist/): `npm run build` first.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeMarketplaceRepository, marketplaceName } from "../plugins/test-support/plugin-marketplace.js";
import type { MarketplaceRepository } from "../plugins/test-support/plugin-marketplace.js";
import { useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

async function marketplace(): Promise<MarketplaceRepository> {
  return makeMarketplaceRepository(join(cli.sandbox.root, "team-marketplace"));
}

/** As `cairn plugin marketplace add` and `cairn plugin install --yes --trust` do it (the first test runs those). */
async function installShop(): Promise<void> {
  const [{ addMarketplace }, { fetchPlugin, installFetched }] = await Promise.all([import("../plugins/marketplace.js"), import("../plugins/plugin-install.js")]);
  await addMarketplace(cli.sandbox.dataDir, join(cli.sandbox.root, "team-marketplace"), cli.sandbox.workspace);
  await installFetched(cli.sandbox.dataDir, await fetchPlugin(cli.sandbox.dataDir, "shop", marketplaceName));
}

describe("cairn plugin", () => {
  it("install shows everything the plugin brings and installs it only after a yes; --yes alone is refused; list shows the pin", { timeout: 60_000 }, async () => {
    const repository = await marketplace();
    const added = await cli.run(["plugin", "marketplace", "add", repository.folder]);
    expect(added.status).toBe(0);
    expect(added.stdout).toContain(`Added marketplace ${marketplaceName}`);
    expect(added.stdout).toContain("shop 1.0.0  The shop team's commands, agents and checks");

    const closed = await cli.run(["plugin", "install", `shop@${marketplaceName}`], { stdin: "" });
    expect(closed.status).toBe(1);
    for (const line of [
      "/shop:greet",
      "shop:auditor",
      "shop:pricing",
      "PostToolUse [Write|Edit]: sh ${CLAUDE_PLUGIN_ROOT}/scripts/log-write.sh",
      `plugin:shop:prices: ${process.execPath} \${CLAUDE_PLUGIN_ROOT}/mcp/prices.js`,
    ]) {
      expect(closed.stderr).toContain(line);
    }
    expect(closed.stderr).toContain("Install and trust it? [y/N]");
    expect(closed.stderr).toContain("Not installed: shop@team-tools.");
    const yesAlone = await cli.run(["plugin", "install", `shop@${marketplaceName}`, "--yes"]);
    expect(yesAlone.status).toBe(2);
    expect(yesAlone.stderr).toContain("only with --trust");
    expect(existsSync(join(cli.sandbox.dataDir, "plugins", "installed"))).toBe(false);

    const installed = await cli.run(["plugin", "install", `shop@${marketplaceName}`], { stdin: "y\n" });
    expect(installed.status).toBe(0);
    const listed = await cli.run(["plugin", "list"]);
    expect(listed.stdout).toMatch(new RegExp(`^shop@team-tools 1\\.0\\.0 {2}enabled {2}\\(commit ${repository.head().slice(0, 12)}, content [0-9a-f]{12}\\)$`, "m"));
    const { loadCustomCommands } = await import("../extensions/custom-commands.js");
    const { loadEnabledPlugins } = await import("../plugins/plugin-contributions.js");
    const plugins = await loadEnabledPlugins({ dataDir: cli.sandbox.dataDir, claudeUserDir: cli.sandbox.claudeUserDir, cwd: cli.sandbox.workspace, projectTrusted: false });
    const names = (await loadCustomCommands({ workspace: cli.sandbox.workspace, userConfigDir: join(cli.sandbox.configDir, "cairn"), plugins: plugins.commands })).map((command) => command.name);
    expect(names).toEqual(["shop:greet", "greet"]);
  });

  it("an update is held until trusted: the trusted version runs on; cairn plugin update shows what changed and asks", { timeout: 60_000 }, async () => {
    const repository = await marketplace();
    await installShop();
    await repository.put("plugins/shop/scripts/log-write.sh", '#!/bin/sh\ncat > /dev/null\ncurl -s https://example.com/collect >> "$CLAUDE_PROJECT_DIR/plugin-hook.log"\n', true);
    await repository.put("plugins/shop/commands/refund.md", "---\ndescription: Refund an order\n---\nRefund $ARGUMENTS.\n");
    repository.commit("v2: refunds");

    const { dataDir, claudeUserDir, workspace } = cli.sandbox;
    const [{ updateMarketplaces, updatePlugin }, { loadEnabledPlugins }] = await Promise.all([import("../plugins/plugin-actions.js"), import("../plugins/plugin-contributions.js")]);
    const commandNames = async (): Promise<string[]> => (await loadEnabledPlugins({ dataDir, claudeUserDir, cwd: workspace, projectTrusted: false })).plugins.flatMap((plugin) => plugin.commandPaths);
    const before = await commandNames();
    const updated = (await updateMarketplaces(dataDir, marketplaceName)).join("\n");
    expect(updated).toMatch(/shop@team-tools changed \(content [0-9a-f]{12}\): held, the version you trusted keeps running/);
    expect(await commandNames()).toEqual(before);

    const declined = await cli.run(["plugin", "update", "shop"], { stdin: "n\n" });
    expect(declined.status).toBe(1);
    expect(declined.stderr).toContain("What changed since the version you trusted:");
    expect(declined.stderr).toContain("    + /shop:refund");
    expect(declined.stderr).toContain("    ~ scripts/log-write.sh");
    expect(declined.stderr).toContain("    + commands/refund.md");
    expect(declined.stderr).toContain("keeps running the version you trusted");
    const list = await cli.run(["plugin", "list"]);
    expect(list.stdout).toMatch(/update held: content [0-9a-f]{12} \(1\.0\.0\) is not trusted yet/);
    const hooks = (await loadEnabledPlugins({ dataDir, claudeUserDir, cwd: workspace, projectTrusted: false })).hooks;
    const script = JSON.stringify(hooks[0]?.hooks).match(/sh (\S+log-write\.sh)/)?.[1] ?? "";
    expect(await readFile(script, "utf8")).toContain("plugin hook v1");

    expect(
      await updatePlugin(
        dataDir,
        "shop@team-tools",
        async () => true,
        (fetched) => fetched.key,
      ),
    ).toBe(0);
    const after = await loadEnabledPlugins({ dataDir, claudeUserDir, cwd: workspace, projectTrusted: false });
    expect(await readFile(join(after.plugins[0]?.root ?? "", "scripts", "log-write.sh"), "utf8")).toContain("curl");
    expect(existsSync(join(after.plugins[0]?.root ?? "", "commands", "refund.md"))).toBe(true);
    expect(existsSync(script)).toBe(false);
    expect((await cli.run(["plugin", "list"])).stdout).not.toContain("update held");
  });

  it("disable turns every part off, enable back on; Claude Code's enabledPlugins false turns it off too; remove deletes the copy", { timeout: 60_000 }, async () => {
    const repository = await marketplace();
    const { dataDir, claudeUserDir, workspace } = cli.sandbox;
    const places = { dataDir, claudeUserDir, cwd: workspace, trust: { trusted: false } };
    const [{ addMarketplace, removeMarketplace }, { fetchPlugin, installFetched }, actions, { loadEnabledPlugins, pluginPlaces }] = await Promise.all([
      import("../plugins/marketplace.js"),
      import("../plugins/plugin-install.js"),
      import("../plugins/plugin-actions.js"),
      import("../plugins/plugin-contributions.js"),
    ]);
    await addMarketplace(dataDir, repository.folder, workspace);
    await installFetched(dataDir, await fetchPlugin(dataDir, "shop", marketplaceName));
    const running = async (): Promise<string[]> => (await loadEnabledPlugins(pluginPlaces(places))).plugins.map((plugin) => plugin.name);
    expect(await running()).toEqual(["shop"]);
    expect(await actions.switchPlugin(dataDir, "shop", false)).toContain("Disabled shop@team-tools");
    expect(await running()).toEqual([]);
    expect(await actions.pluginListing(places, false)).toContain("shop@team-tools 1.0.0  disabled");
    await actions.switchPlugin(dataDir, "shop@team-tools", true);
    expect(await running()).toEqual(["shop"]);

    await mkdir(claudeUserDir, { recursive: true });
    await writeFile(join(claudeUserDir, "settings.json"), JSON.stringify({ enabledPlugins: { "shop@team-tools": false, "lint@team-tools": true } }));
    const listing = await actions.pluginListing(places, false);
    expect(listing).toContain(`shop@team-tools 1.0.0  off (enabledPlugins in ${join(claudeUserDir, "settings.json")})`);
    expect(listing).toContain("lint@team-tools  not installed (enabled in");
    expect(await running()).toEqual([]);
    expect((await loadEnabledPlugins(pluginPlaces(places))).notices.join("\n")).toContain("enables the plugin lint@team-tools, which is not installed in cairn");

    expect(await actions.removePlugin(dataDir, "shop")).toBe("Removed shop@team-tools and its copy.");
    expect(existsSync(join(dataDir, "plugins", "installed", "shop@team-tools"))).toBe(false);
    await removeMarketplace(dataDir, marketplaceName);
    expect(existsSync(join(dataDir, "plugins", "marketplaces", marketplaceName))).toBe(false);
  });

  it("a marketplace Claude Code's extraKnownMarketplaces names is added when one of its plugins is installed", { timeout: 30_000 }, async () => {
    const repository = await marketplace();
    const { dataDir, claudeUserDir, workspace } = cli.sandbox;
    await mkdir(claudeUserDir, { recursive: true });
    await writeFile(join(claudeUserDir, "settings.json"), JSON.stringify({ extraKnownMarketplaces: { [marketplaceName]: { source: { source: "git", url: `file://${repository.folder}` } } } }));
    const { installPlugin } = await import("../plugins/plugin-actions.js");
    const asked: string[] = [];
    const status = await installPlugin(
      { dataDir, claudeUserDir, cwd: workspace, trust: { trusted: false } },
      `shop@${marketplaceName}`,
      async (question) => (asked.push(question), true),
      (fetched, lines) => [fetched.key, ...lines].join("\n"),
    );
    expect(status).toBe(0);
    expect(asked[0]).toContain("/shop:greet");
    const { readPluginState } = await import("../plugins/plugin-state.js");
    const state = await readPluginState(dataDir);
    expect(state.marketplaces[marketplaceName]).toMatchObject({ kind: "git", source: `file://${repository.folder}` });
    expect(state.plugins["shop@team-tools"]?.pinned.commit).toBe(repository.head());
  });

  it("a marketplace whose plugin names a path, or leaves its folder, is refused before anything is written", async () => {
    const { addMarketplace } = await import("../plugins/marketplace.js");
    const folder = join(cli.sandbox.root, "odd-marketplace");
    const write = (plugins: unknown[]): Promise<void> =>
      mkdir(join(folder, ".claude-plugin"), { recursive: true }).then(() => writeFile(join(folder, ".claude-plugin", "marketplace.json"), JSON.stringify({ name: "odd", owner: { name: "x" }, plugins })));
    await write([{ name: "../../escape", source: "./p" }]);
    await expect(addMarketplace(cli.sandbox.dataDir, folder, cli.sandbox.workspace)).rejects.toThrow(/plugins\[0\] needs a "name"/);
    await write([{ name: "p", source: "../../elsewhere" }]);
    await expect(addMarketplace(cli.sandbox.dataDir, folder, cli.sandbox.workspace)).rejects.toThrow(/source \.\.\/\.\.\/elsewhere leaves the marketplace's folder/);
    expect(existsSync(join(cli.sandbox.dataDir, "plugins"))).toBe(false);
  });
});
