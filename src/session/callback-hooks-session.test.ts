import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveSettings } from "../config/index.js";
import { callbackHooks } from "../hooks/callback-hooks.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import type { Host } from "../task/contracts/host.js";
import type { UiMessage } from "../task/contracts/messages.js";
import { createSession } from "./session.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "cairn-callback-session-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

describe("hooks given as callbacks to a session (the SDK's hooks option)", () => {
  it("a PreToolUse callback blocks a write_to_file in a whole task: the file is not written and the model is told why", async () => {
    const workspace = join(root, "workspace");
    await mkdir(workspace, { recursive: true });
    const settings = await resolveSettings({
      flags: { cwd: workspace, provider: "mock", yes: true, dataDir: join(root, "data") },
      env: {},
      cwd: workspace,
      userConfigDir: join(root, "config"),
      claudeUserDir: join(root, "claude"),
      claudeStateFile: join(root, "claude.json"),
      managedSettingsPath: join(root, "managed-settings.json"),
    });
    const scenario: Scenario = {
      turns: [{ text: "<write_to_file>\n<path>secrets.env</path>\n<content>TOKEN=1\n</content>\n</write_to_file>" }, { text: "<attempt_completion>\n<result>could not write it</result>\n</attempt_completion>" }],
    };
    const seen: Array<{ event: string; tool?: string; path?: unknown }> = [];
    const hooks = callbackHooks({
      UserPromptSubmit: [{ hooks: [(input) => void seen.push({ event: input.hook_event_name })] }],
      PreToolUse: [
        {
          matcher: "Write",
          hooks: [
            async function noEnvFiles(input) {
              seen.push({ event: input.hook_event_name, tool: input.tool_name, path: input.tool_input["file_path"] });
              return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: ".env files are off limits" } };
            },
          ],
        },
      ],
    });
    const messages: UiMessage[] = [];
    const host: Host = { onMessage: (message) => void messages.push(message), answerAsk: async () => ({ response: "yes" }) };
    const session = await createSession({ settings, host, scenario, hooks, headless: true, checkpoints: false, start: { kind: "new", task: "Store the token" } });
    try {
      const result = await session.run();
      expect(result.status).toBe("completed");
      const toModel = JSON.stringify(session.task.apiConversationHistory);
      expect(toModel).toContain("A PreToolUse hook blocked this write_to_file call: .env files are off limits");
    } finally {
      await session.close();
    }
    await expect(readFile(join(workspace, "secrets.env"), "utf8")).rejects.toThrow();
    expect(seen).toEqual([{ event: "UserPromptSubmit" }, { event: "PreToolUse", tool: "Write", path: join(workspace, "secrets.env") }]);
    const statuses = messages.filter((message) => message.type === "say" && message.say === "hook_status").map((message) => message.text);
    expect(statuses).toContain("PreToolUse hook callback noEnvFiles blocked: .env files are off limits");
  });
});
