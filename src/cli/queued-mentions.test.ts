import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveSettings } from "../config/index.js";
import { startScriptedServer } from "../llm/scripted/server.js";
import type { ScriptedServer } from "../llm/scripted/server.js";
import { TuiHost } from "../ui/tui/tui-host.js";
import { InteractiveController } from "./interactive.js";

let root: string;
let server: ScriptedServer | undefined;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "cairn-queued-mentions-"));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("typing while cairn works (issue #12)", () => {
  it("a queued message's @mention is expanded when it reaches the model at the next tool boundary", async () => {
    const workspace = join(root, "workspace");
    await mkdir(workspace, { recursive: true });
    await writeFile(join(workspace, "notes.txt"), "the queued mention's content: kiwi-42\n");
    server = await startScriptedServer({
      scenario: {
        turns: [
          { text: "<execute_command>\n<command>sleep 2</command>\n<requires_approval>false</requires_approval>\n</execute_command>" },
          { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>" },
        ],
      },
    });
    const settings = await resolveSettings({
      flags: { cwd: workspace, provider: "anthropic", baseUrl: server.url, apiKey: "test-key", model: "claude-sonnet-5-5", yes: true, dataDir: join(root, "data") },
      env: {},
      cwd: workspace,
      userConfigDir: join(root, "config"),
    });
    const host = new TuiHost();
    const controller = new InteractiveController({ settings, host, exitWhenDone: false, onExit: () => {} });
    try {
      controller.submit("run the slow command");
      await until(() => server!.requests.length === 1, "the first request");
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
