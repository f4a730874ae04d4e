/**
 * Journey: a team lead sets a daily spend cap and an OTLP endpoint in the user
 * settings, runs tasks, and reads `cairn usage` (issue #36; docs/journeys.md
 * "A team lead watches what the agents cost"). Through the real bin/cairn (run
 * `npm run build` first), the sandbox on, a collector on loopback.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicArgs, useCliFixture } from "../cli/test-support/cli-fixture.js";
import { checkBubblewrap } from "../security/sandbox.js";
import { startOtlpReceiver, type OtlpReceiver } from "../telemetry/test-support/otlp-receiver.js";

let collector: OtlpReceiver;
beforeAll(async () => {
  collector = await startOtlpReceiver();
});
afterAll(() => collector.close());

const cli = useCliFixture({
  prepare: async (sandbox) => {
    await writeFile(join(sandbox.workspace, "notes.txt"), "ship it on friday\n");
  },
});

const usage = { inputTokens: 1000, outputTokens: 500 };
const command = (text: string) => ({ text: `<execute_command>\n<command>${text}</command>\n<requires_approval>false</requires_approval>\n</execute_command>`, usage });
const complete = (text: string) => ({ text: `<attempt_completion>\n<result>${text}</result>\n</attempt_completion>`, usage });

describe.skipIf(!checkBubblewrap().ok)("journey: a team lead watches what the agents cost", () => {
  it("a daily cap stops the task that reaches it with status 3 and says when it resets; each task is a trace; cairn usage adds them up", { timeout: 90_000 }, async () => {
    await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10] }, spendCap: { daily: 0.04 }, telemetry: { endpoint: collector.url, protocol: "http/json" } }));
    // $0.007 a request on the default Anthropic model.
    const first = await cli.startServer({ turns: [{ text: "<read_file>\n<path>notes.txt</path>\n</read_file>", usage }, complete("Friday.")] });
    const read = await cli.run(["run", ...anthropicArgs(first), "--yes", "WORDS-OF-TASK-ONE: when do we ship?"]);
    expect(read.status, read.stderr).toBe(0);

    const second = await cli.startServer({ turns: [command("echo step 1"), command("echo step 2"), command("echo step 3"), command("echo step 4"), command("echo step 5"), complete("all steps")] });
    const steps = await cli.run(["run", ...anthropicArgs(second), "--yes", "WORDS-OF-TASK-TWO: run the steps"]);
    expect(steps.status).toBe(3);
    expect(steps.stderr).toMatch(
      /Spend cap reached: the daily spend cap \(spendCap\.daily\) of \$0\.04 for this user \(all tasks of this data folder\) is reached: \$0\.04 spent today \(UTC\) across tasks; it resets at \d{4}-\d\d-\d\d 00:00 UTC \(in .+\)/,
    );
    expect(second.requests).toHaveLength(4);
    const third = await cli.run(["run", ...anthropicArgs(second), "--yes", "one more"]);
    expect(third.status).toBe(3);
    expect(second.requests).toHaveLength(4);

    // One trace per task, with its requests and tools under it; none of the tasks' words.
    const tasks = collector.spans.filter((span) => span.name === "cairn.task");
    expect(tasks.map((span) => span.attributes["cairn.task.status"])).toEqual(["completed", "budget", "budget"]);
    const underSecond = collector.spans.filter((span) => span.parentSpanId === tasks[1]?.spanId);
    expect(underSecond.filter((span) => span.name.startsWith("chat "))).toHaveLength(4);
    expect(underSecond.filter((span) => span.name === "tool execute_command").map((span) => [span.attributes["cairn.tool.outcome"], span.attributes["cairn.tool.approval"]])).toEqual(
      Array(4).fill(["success", "not asked"]),
    );
    expect([...collector.metricNames]).toEqual(expect.arrayContaining(["cairn.tokens", "cairn.cost"]));
    expect(collector.bodies.join("\n")).not.toMatch(/WORDS-OF-TASK|ship it on friday/);

    const today = await cli.run(["usage", "--since", "1d"]);
    expect(today.status, today.stderr).toBe(0);
    expect(today.stdout).toMatch(/3 tasks · 6,000 tokens in · 3,000 out · \$0\.0420 · 6 requests · 6 tool calls · \d+ s active/);
    const byDay = await cli.run(["usage", "--by", "day"]);
    expect(byDay.stdout).toMatch(/\n\d{4}-\d\d-\d\d\s+3\s+6,000\s+3,000\s+0\s+6\s+6\s+\d+ s\s+\$0\.0420\s+█{24}\n/);
    const byTask = JSON.parse((await cli.run(["usage", "--by", "task", "--json"])).stdout) as { groups: Array<{ cost: number }> };
    const ledger = (await readFile(join(cli.sandbox.dataDir, "spend", `${new Date().toISOString().slice(0, 10)}.jsonl`), "utf8"))
      .trim()
      .split("\n")
      .reduce((sum, line) => sum + (JSON.parse(line) as { cost: number }).cost, 0);
    expect(byTask.groups.map((group) => group.cost)).toEqual([0.028, 0.014, 0]);
    expect(byTask.groups.reduce((sum, group) => sum + group.cost, 0)).toBeCloseTo(ledger, 9);
  });
});
