/**
 * The terminal UI with real MCP servers (server-everything and a small SDK
 * server that adds a prompt while connected), a real InteractiveController and
 * the scripted model over HTTP: the completion menu and @-completion offer the
 * servers' prompts and resources once a task started them, and a message
 * queued while the task works reaches the model with its `@server:uri` expanded.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resolveSettings } from "../config/index.js";
import { everythingEntry } from "../mcp/test-support/servers.js";
import { ManualClock } from "../ui/tui/test-support/fake-terminal.js";
import { mountUi } from "../ui/tui/test-support/mount.js";
import { SlashCommandRegistry } from "../ui/tui/slash-commands.js";
import { TuiHost } from "../ui/tui/tui-host.js";
import { InteractiveController } from "./interactive.js";
import { mcpPromptCommands } from "./mcp-completions.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { until } from "./test-support/until.js";

const cli = useCliFixture();
const elicitingEntry = fileURLToPath(new URL("../mcp/test-support/eliciting-server.js", import.meta.url));
const backspaces = (count: number): string => "\u007f".repeat(count);

describe("MCP prompts and resources in the terminal UI", () => {
  it("the menu offers the servers' prompts once a task started them (a prompt added meanwhile too), Tab completes @server:uri, and a queued @server:uri reaches the model expanded", async () => {
    const { workspace, dataDir, configDir } = cli.sandbox;
    const userConfigDir = join(configDir, "cairn");
    await mkdir(userConfigDir, { recursive: true });
    await writeFile(
      join(userConfigDir, "mcp.json"),
      JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingEntry, "stdio"] }, bistro: { command: process.execPath, args: [elicitingEntry] } } }),
    );
    const server = await cli.startServer({
      turns: [
        { text: "<execute_command>\n<command>sleep 1</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
        { text: "<use_mcp_tool>\n<server_name>bistro</server_name>\n<tool_name>add_prompt</tool_name>\n<arguments>{}</arguments>\n</use_mcp_tool>" },
        { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" },
      ],
    });
    const settings = await resolveSettings({
      flags: { cwd: workspace, provider: "anthropic", baseUrl: server.url, apiKey: "test-key", model: "claude-sonnet-5-5", yes: true, dataDir },
      env: {},
      cwd: workspace,
      userConfigDir,
    });
    const clock = new ManualClock();
    const host = new TuiHost({ clock });
    const controller = new InteractiveController({ settings, host, exitWhenDone: false, onExit: () => {} });
    const commands = new SlashCommandRegistry();
    commands.addSource(mcpPromptCommands(() => controller.mcp.references()));
    const ui = mountUi({ clock, host, controller, commands });
    try {
      // Before any task no server runs: the menu has nothing to offer, and says nothing wrong.
      await ui.press("/mcp__");
      await ui.tick();
      expect(ui.frame()).not.toContain("/mcp__everything");
      expect(ui.frame()).not.toMatch(/error|unknown command/i);
      await ui.press(backspaces(6));

      controller.submit("use the servers");
      await until(() => server.requests.length === 1, "the first request");
      const resource = controller.mcp
        .references()
        ?.listResources()
        .find((candidate) => candidate.uri.startsWith("demo://resource/static/document/"));
      expect(resource).toBeDefined();
      controller.enqueue(`also read @everything:${resource?.uri ?? ""}`);
      await until(() => controller.result !== undefined && !controller.status().busy, "the task to end");
      const later = server.requests.slice(1).map((request) => JSON.stringify(request.body));
      expect(later.find((body) => body.includes("also read"))).toContain(`<mcp_resource server=\\"everything\\" uri=\\"${resource?.uri ?? ""}\\">`);

      // The servers outlive the task: the menu offers their prompts, the one added during the task included.
      await ui.press("/mcp__bistro");
      await ui.tick();
      expect(ui.frame()).toContain("/mcp__bistro__menu  Today's menu (MCP prompt of bistro)");
      expect(ui.frame()).toContain("/mcp__bistro__welcome  Greets the guest (MCP prompt of bistro)");
      await ui.press(backspaces(6) + "everything__args");
      await ui.tick();
      expect(ui.frame()).toContain("/mcp__everything__args-prompt <city> [state]");
      await ui.press(backspaces("/mcp__everything__args".length) + "read @everything:demo://resource/static/document/");
      await ui.press("\t");
      await until(() => {
        void ui.tick();
        return ui.frame().includes(`@everything:${resource?.uri ?? ""}`);
      }, "the resource among the completions");
    } finally {
      ui.unmount();
      await controller.close();
    }
  }, 60_000);
});
