/**
 * Journey: the cautious user previews a command and allows a domain
 * (docs/journeys.md, "The terminal user"). bin/cairn in tmux against the
 * scripted model, in the sandbox as a real user has it: run `npm run build` first.
 */
import { createServer, type Server } from "node:http";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicArgs } from "../cli/test-support/cli-fixture.js";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { sandboxUsable } from "./test-support/model-turns.js";
import { commandTurn, completeTurn, quitWithCtrlC, squeezed, useJourneyTerminal } from "./test-support/terminal-journey.js";

const sandboxed = sandboxUsable("the cautious user journey");
if (!tmuxAvailable()) console.warn("tmux is not installed: the journey 'preview a command, allow a domain' is skipped (install the tmux package)");

const cli = useJourneyTerminal({
  prepare: async (sandbox) => {
    // Destructive commands are asked (in the sandbox the rest runs unasked); package registries are reachable by domain.
    await writeFile(join(sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10, 20, 40] }, permissions: { ask: ["Bash(rm:*)"], allow: ["Network(preset:package-registries)"] } }));
    await mkdir(join(sandbox.workspace, "build", "assets"), { recursive: true });
    await writeFile(join(sandbox.workspace, "build", "bundle.js"), "old bundle\n");
    await writeFile(join(sandbox.workspace, "build", "assets", "logo.svg"), "<svg/>\n");
    await writeFile(join(sandbox.workspace, "src.js"), "console.log('hi');\n");
  },
});

describe.skipIf(!tmuxAvailable() || !sandboxed)("journey: preview a command, allow a domain", () => {
  it("`rm -rf build` previewed from the menu shows what it deletes and lands only when applied; a host the proxy refused is allowed from the menu and the command gets through", { timeout: 120_000 }, async () => {
    // A mirror on the loopback the rules do not name yet.
    const mirror: Server = createServer((_request, response) => response.end("hello from the mirror\n"));
    await new Promise<void>((resolve) => mirror.listen(0, "127.0.0.3", resolve));
    cli.stopAfterTest(() => new Promise<void>((resolve) => mirror.close(() => resolve())));
    const address = `http://127.0.0.3:${(mirror.address() as { port: number }).port}`;
    const server = await cli.startServer({
      turns: [commandTurn("rm -rf build"), commandTurn(`curl -sS --max-time 10 ${address}/data`), completeTurn("build cleaned, data fetched")],
    });
    const ui = await cli.openCairn([...anthropicArgs(server), "clean the build and fetch the data"]);

    // The ask rule asks; the menu offers a preview.
    const asked = await ui.waitFor(/Preview what it would change/, { timeoutMs: 60_000 });
    expect(asked).toMatch(/1\. Yes[\s\S]*2\. Preview what it would change[\s\S]*3\. No/);
    await ui.sendKeys("2");
    const preview = await ui.waitFor(/It would create[\s\S]*apply these changes to the workspace\?[\s\S]*1\. Yes/, { timeoutMs: 60_000 });
    expect(squeezed(preview)).toContain(squeezed("It would create 0, change 0 and delete 2 files:"));
    expect(preview).toContain("deleted build/assets/logo.svg");
    expect(preview).toContain("deleted build/bundle.js");
    // Nothing has landed while the user reads the preview.
    expect(existsSync(join(cli.sandbox.workspace, "build", "bundle.js"))).toBe(true);
    await ui.sendKeys("1");

    // The proxy refused the mirror: the menu offers to allow its domain for good.
    const refused = await ui.waitFor(/always allow Network\(domain:127\.0\.0\.3\)/, { timeoutMs: 60_000 });
    expect(refused).toContain("network proxy refused 127.0.0.3");
    expect(existsSync(join(cli.sandbox.workspace, "build"))).toBe(false);
    await ui.sendKeys("2");
    await ui.waitFor(/Done\?/, { timeoutMs: 60_000 });
    expect(JSON.stringify(server.requests[2]?.body)).toContain("hello from the mirror");
    const config = JSON.parse(await readFile(join(cli.sandbox.configDir, "cairn", "config.json"), "utf8")) as { permissions: { allow: string[] } };
    expect(config.permissions.allow).toContain("Network(domain:127.0.0.3)");
    expect(await readFile(join(cli.sandbox.workspace, "src.js"), "utf8")).toBe("console.log('hi');\n");
    await ui.sendKeys("Enter");
    await ui.waitFor(/Give feedback/, { timeoutMs: 30_000 });
    expect(await quitWithCtrlC(ui)).toBe(0);
  });
});
