/**
 * `/plugins` in the real terminal UI (tmux): the installed plugin with its pin,
 * then switched off from the UI, which lands in the data folder.
 * Runs bin/cairn (dist/): `npm run build` first.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addMarketplace } from "../plugins/marketplace.js";
import { fetchPlugin, installFetched } from "../plugins/plugin-install.js";
import { readPluginState } from "../plugins/plugin-state.js";
import { makeMarketplaceRepository, marketplaceName } from "../plugins/test-support/plugin-marketplace.js";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

describe.skipIf(!tmuxAvailable())("/plugins in the terminal UI (tmux)", () => {
  it("/plugins lists the installed plugin with its pin; /plugins disable switches it off on disk", { timeout: 60_000 }, async () => {
    const { dataDir, workspace, root } = cli.sandbox;
    const repository = await makeMarketplaceRepository(join(root, "team-marketplace"));
    await addMarketplace(dataDir, repository.folder, workspace);
    await installFetched(dataDir, await fetchPlugin(dataDir, "shop", marketplaceName));
    const server = await cli.startServer({ turns: [] });
    const ui = await cli.openCairn(["--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-plugins-tui"], { columns: 120 });
    await ui.waitFor(/What should cairn do\?/, { timeoutMs: 60_000 });
    await ui.sendText("/plugins");
    await ui.sendKeys("Enter");
    await ui.waitFor(new RegExp(`shop@team-tools 1\\.0\\.0 {2}enabled {2}\\(commit ${repository.head().slice(0, 12)}, content [0-9a-f]{12}\\)`), { timeoutMs: 20_000 });
    await ui.sendText("/plugins disable shop");
    await ui.sendKeys("Enter");
    await ui.waitFor(/Disabled shop@team-tools: none of its parts run from the next task\./, { timeoutMs: 20_000 });
    expect((await readPluginState(dataDir)).plugins["shop@team-tools"]?.enabled).toBe(false);
    expect(server.requests).toHaveLength(0);
  });
});
