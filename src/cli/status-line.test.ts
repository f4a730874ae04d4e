/**
 * Claude Code's `statusLine` command as the terminal UI runs it: what it is
 * told, which line is shown, what a failure shows, and that it does not run
 * again while nothing changed. The drawing itself is in the Claude Code
 * user's journey (tmux, src/journeys/claude-code-user.test.ts).
 */
import { describe, expect, it } from "vitest";
import type { ResolvedSettings } from "../config/index.js";
import type { HookProcessRequest, HookProcessResult } from "../hooks/spawn-hook.js";
import { modelDisplayName, StatusLineCommand } from "./status-line.js";

const settings = {
  cwd: "/work/shop",
  dataDir: "/home/me/.cairn",
  sandbox: "off",
  sandboxNetwork: false,
  allowEnv: [],
  environment: {},
  userConfigDir: "/home/me/.config/cairn",
  permissions: [],
} as unknown as ResolvedSettings;
const state = { taskId: "task-1", model: "claude-sonnet-4-5", mode: "act" as const, cost: 0.25, tokensUsed: 1200, contextWindow: 200_000 };

function command(answer: Partial<HookProcessResult>): { line: StatusLineCommand; requests: HookProcessRequest[] } {
  const requests: HookProcessRequest[] = [];
  const line = new StatusLineCommand({
    setting: { type: "command", command: "~/.claude/statusline.sh" },
    fromProject: false,
    settings: () => settings,
    spawn: async (request) => {
      requests.push(request);
      return { exitCode: 0, stdout: "", stderr: "", timedOut: false, cancelled: false, truncated: false, durationMs: 1, ...answer };
    },
  });
  return { line, requests };
}

const settled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

describe("the status line command", () => {
  it("gets Claude Code's status JSON and shows the first line it prints, without colours; it does not run again while nothing changed", async () => {
    const { line, requests } = command({ stdout: "\n\u001b[32m[Sonnet 4.5]\u001b[0m shop\nsecond line\n" });
    line.update(state);
    await settled();
    line.update(state);
    await settled();
    expect(requests).toHaveLength(1);
    expect(line.line).toBe("[Sonnet 4.5] shop");
    expect(JSON.parse(requests[0]?.input ?? "{}")).toMatchObject({
      hook_event_name: "Status",
      session_id: "task-1",
      transcript_path: "/home/me/.cairn/tasks/task-1/log.jsonl",
      cwd: "/work/shop",
      model: { id: "claude-sonnet-4-5", display_name: "Sonnet 4.5" },
      workspace: { current_dir: "/work/shop", project_dir: "/work/shop" },
      cost: { total_cost_usd: 0.25 },
      exceeds_200k_tokens: false,
      cairn: { mode: "act", tokens_used: 1200, context_window: 200_000 },
    });
    expect(requests[0]).toMatchObject({ command: "~/.claude/statusline.sh", cwd: "/work/shop", env: { CLAUDE_PROJECT_DIR: "/work/shop" } });
  });

  it("a failing command shows why, in that line", async () => {
    const { line } = command({ exitCode: 127, stderr: "sh: 1: /home/me/.claude/statusline.sh: not found\n" });
    line.update(state);
    await settled();
    expect(line.line).toBe("status line: ~/.claude/statusline.sh failed (exit 127): sh: 1: /home/me/.claude/statusline.sh: not found");
  });

  it("names models as Claude Code does", () => {
    expect(modelDisplayName("claude-opus-4-1")).toBe("Opus 4.1");
    expect(modelDisplayName("claude-sonnet-5-5")).toBe("Sonnet 5.5");
    expect(modelDisplayName("claude-haiku-4-5-20251001")).toBe("Haiku 4.5");
    expect(modelDisplayName("gpt-5.4")).toBe("gpt-5.4");
  });
});
