import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveSettings } from "../config/index.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import { TaskStore } from "../store/task-store.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { TuiHost } from "../ui/tui/tui-host.js";
import { InteractiveController } from "./interactive.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { until } from "./test-support/until.js";

const cli = useCliFixture();

describe("/compact and /uncompact in the terminal UI", () => {
  it("condense the finished task's conversation at once, then restore it; both land in the task log", async () => {
    const { workspace, dataDir, configDir } = cli.sandbox;
    for (let file = 0; file < 8; file += 1) await writeFile(join(workspace, `f${file}.txt`), `File ${file}: the quick brown fox jumps over the lazy dog.\n`.repeat(70));
    await writeFile(join(configDir, "cairn", "config.json"), JSON.stringify({ context: { filesKept: 1 } }));
    const read = (path: string) => ({ text: `<read_file>\n<path>${path}</path>\n</read_file>` });
    const scenario: Scenario = {
      turns: [...Array.from({ length: 8 }, (_, file) => read(`f${file}.txt`)), { text: "<attempt_completion>\n<result>read them</result>\n</attempt_completion>" }],
      routes: [{ bodyIncludes: "You condense the conversation", turns: [{ text: "## Task\nRead the files.\n## Next step\nNothing: done (tui summary)." }] }],
    };
    const settings = await resolveSettings({
      flags: { cwd: workspace, provider: "mock", yes: true, dataDir },
      env: {},
      cwd: workspace,
      userConfigDir: join(configDir, "cairn"),
    });
    const host = new TuiHost();
    const seen: UiMessage[] = [];
    const show = host.onMessage.bind(host);
    host.onMessage = (message) => {
      seen.push(message);
      show(message);
    };
    const controller = new InteractiveController({ settings, host, scenario, exitWhenDone: false, onExit: () => {} });
    try {
      controller.submit("Read the files");
      await until(() => controller.result !== undefined && !controller.status().busy, "the task to end");
      expect(controller.result?.status).toBe("completed");
      const store = new TaskStore({ dataDir: settings.dataDir });
      const taskId = controller.taskId ?? "";
      const before = controller.status().tokensUsed;

      controller.contextCommand("compact"); // what the /compact slash command calls
      await until(() => seen.some((message) => message.type === "say" && message.say === "condense") && !controller.status().busy, "the condense message");
      const condense = seen.find((message) => message.type === "say" && message.say === "condense");
      expect(condense?.text).toContain("(tui summary)");
      expect(controller.status().tokensUsed).toBeLessThan(before);

      controller.contextCommand("uncompact"); // what /uncompact calls
      await until(() => seen.some((message) => message.text.startsWith("Restored the conversation")) && !controller.status().busy, "the restore");
      await controller.close();
      const loaded = await store.load(taskId);
      expect(loaded.apiHistory).toHaveLength(18);
      expect(loaded.uiMessages.some((message) => message.type === "say" && message.say === "condense")).toBe(true);
    } finally {
      await controller.close();
      host.dispose();
    }
  }, 90_000);
});
