import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { TaskStore } from "../store/task-store.js";
import { startCli } from "./test-support/cli-harness.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { withoutSandboxNotice } from "./test-support/cli-harness.js";

const fixture = useCliFixture();

/** A deterministic random sequence, so a failing run can be replayed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function longTask(): Scenario {
  const steps = Array.from({ length: 30 }, (_, index) => ({
    text:
      `Step ${index}: ${"working through the plan carefully. ".repeat(6)}\n` +
      // Every third step prints a lot, so some kills land while a big log entry is written.
      `<execute_command>\n<command>echo step-${index} >> steps.log; ${index % 3 === 0 ? "head -c 300000 /dev/zero | tr '\\\\0' x; " : ""}sleep 0.2</command>\n<requires_approval>false</requires_approval>\n</execute_command>`,
    chunkSize: 12,
    delayMs: 8,
  }));
  const completions = Array.from({ length: 60 }, () => ({ text: "<attempt_completion>\n<result>all steps done</result>\n</attempt_completion>" }));
  return { turns: [...steps, ...completions] };
}

describe("a task killed with kill -9 at random points resumes without repeating or losing anything", () => {
  it("the task completes, no completed tool runs twice, no message that was shown is lost", { timeout: 600_000 }, async () => {
    const server = await fixture.startServer(longTask());
    const provider = ["--provider", "anthropic", "--base-url", server.url, "--api-key", "test-key"];
    const random = seeded(20261130);
    const shown = new Set<string>();
    let taskId: string | undefined;
    const kills = 20;
    for (let kill = 0; kill < kills; kill += 1) {
      const args = taskId === undefined ? ["run", "--json", "--yes", ...provider, "do every step"] : ["resume", "--json", "--yes", ...provider, taskId];
      const cli = startCli(args, { env: fixture.sandbox.env, cwd: fixture.sandbox.workspace });
      // Past start-up, then a random moment: mid-stream, mid-command, mid-write of the log.
      await cli.waitForOutput(/"say":"api_req_started"/);
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.floor(random() * 1200)));
      cli.child.kill("SIGKILL");
      await cli.exit;
      for (const event of cli.events()) {
        taskId ??= String(event["taskId"]);
        if (event["partial"] === false && event["say"] !== "api_req_started" && event["type"] === "say") shown.add(String(event["id"]));
      }
      expect(taskId).toBeDefined();
    }

    const final = await fixture.run(["resume", "--json", "--yes", ...provider, taskId!]);
    expect(withoutSandboxNotice(final.stderr)).toBe("");
    expect(final.status).toBe(0);
    expect(final.events.some((event) => event["say"] === "completion_result" && event["text"] === "all steps done")).toBe(true);

    const steps = (await readFile(join(fixture.sandbox.workspace, "steps.log"), "utf8")).split("\n").filter((line) => line.length > 0);
    expect(steps.length).toBeGreaterThan(0);
    expect(new Set(steps).size).toBe(steps.length);

    const loaded = await new TaskStore({ dataDir: fixture.sandbox.dataDir }).load(taskId!);
    expect(loaded.status).toBe("completed");
    for (const warning of loaded.warnings) expect(warning).toMatch(/last line|torn|cut off|incomplete/i);
    const kept = new Set(loaded.uiMessages.map((message) => message.id));
    const lost = [...shown].filter((id) => !kept.has(id));
    expect(lost).toEqual([]);
    const roles = loaded.apiHistory.map((message) => message.role);
    roles.forEach((role, index) => expect(role).toBe(index % 2 === 0 ? "user" : "assistant"));
  });
});
