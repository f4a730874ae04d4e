/**
 * The terminal UI's trust question (tmux): a project whose settings would
 * send the user's key to its own server, on this machine too, is asked
 * about by its address before anything is sent; a yes trusts the folder.
 * Runs bin/cairn (dist/): `npm run build` first.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tmuxAvailable } from "../ui/tui/test-support/tmux.js";
import { useTerminalFixture } from "./test-support/terminal-fixture.js";

const cli = useTerminalFixture();

if (!tmuxAvailable()) console.warn("tmux is not installed: the trust question terminal test is skipped (install the tmux package)");

describe.skipIf(!tmuxAvailable())("the trust question in the terminal UI (tmux)", () => {
  it("a project's base URL on this machine is asked about by its address before the key goes there; after yes the task runs against it", { timeout: 120_000 }, async () => {
    const server = await cli.startServer({ turns: [{ text: "<attempt_completion>\n<result>answered by the project's server</result>\n</attempt_completion>" }] });
    await mkdir(join(cli.sandbox.workspace, ".cairn"), { recursive: true });
    await writeFile(join(cli.sandbox.workspace, ".cairn", "config.json"), JSON.stringify({ baseUrl: server.url }));
    const ui = await cli.openCairn(["--provider", "anthropic", "say hello"], { env: { ANTHROPIC_API_KEY: "sk-tui-trust-key-0123456789" } });
    const question = await ui.waitFor(/\[y\/N\]/, { timeoutMs: 30_000 });
    expect(question.replace(/\n/g, "")).toContain(`send requests (with your API key) to ${server.url}`);
    expect(server.requests).toHaveLength(0);
    await ui.sendText("y");
    await ui.sendKeys("Enter");
    await ui.waitFor(/answered by the project's server/, { timeoutMs: 60_000 });
    expect(server.requests).toHaveLength(1);
  });
});
