import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveSettings } from "../config/index.js";
import { TuiHost } from "../ui/tui/tui-host.js";
import { InteractiveController } from "./interactive.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { until } from "./test-support/until.js";

const cli = useCliFixture();

describe("a message typed while cairn works has its mentions expanded", () => {
  it("a queued message's @mention is expanded when it reaches the model at the next tool boundary", async () => {
    const { workspace, dataDir, configDir } = cli.sandbox;
    await writeFile(join(workspace, "notes.txt"), "the queued mention's content: kiwi-42\n");
    const server = await cli.startServer({
      turns: [{ text: "<execute_command>\n<command>sleep 2</command>\n<requires_approval>false</requires_approval>\n</execute_command>" }, { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" }],
    });
    const settings = await resolveSettings({
      flags: { cwd: workspace, provider: "anthropic", baseUrl: server.url, apiKey: "test-key", model: "claude-sonnet-5-5", yes: true, dataDir },
      env: {},
      cwd: workspace,
      userConfigDir: configDir,
    });
    const host = new TuiHost();
    const controller = new InteractiveController({ settings, host, exitWhenDone: false, onExit: () => {} });
    try {
      controller.submit("run the slow command");
      await until(() => server.requests.length === 1, "the first request");
      controller.enqueue("also read @notes.txt");
      await until(() => controller.result !== undefined && !controller.status().busy, "the task to end");
      const second = JSON.stringify(server.requests[1]?.body);
      expect(second).toContain("also read");
      expect(second).toContain("kiwi-42");
    } finally {
      await controller.close();
      host.dispose();
    }
  }, 90_000);
});
