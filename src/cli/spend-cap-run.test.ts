/**
 * Spend caps across tasks (#36) through the real CLI: two `cairn run`
 * processes sharing one data folder and a daily cap that each task alone would
 * stay under, and together would pass. The ledger both write
 * (`<dataDir>/spend/<day>.jsonl`) loses no charge, and the task that meets the
 * cap stops with the budget status and says which cap, what was spent and when
 * it resets.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ScenarioTurn } from "../llm/scripted/scenario.js";
import { startCli } from "./test-support/cli-harness.js";
import { anthropicArgs, useCliFixture } from "./test-support/cli-fixture.js";

const cli = useCliFixture();

const usage = { inputTokens: 1000, outputTokens: 500 };
const step = (index: number): ScenarioTurn => ({ text: `Step ${index}.\n<execute_command>\n<command>sleep 0.1</command>\n<requires_approval>false</requires_approval>\n</execute_command>`, usage });
const complete: ScenarioTurn = { text: "<attempt_completion>\n<result>done</result>\n</attempt_completion>", usage };

describe("spend caps across tasks", () => {
  it("two tasks running at once share the daily cap: the one that meets it stops with status 3 naming the cap, and no charge is lost", async () => {
    const turns = [step(1), step(2), step(3), complete];
    const servers = [await cli.startServer({ turns }), await cli.startServer({ turns })];
    // Each task costs 4 × $0.007 = $0.028 on the default Anthropic model: under the cap alone, over it together.
    await writeFile(join(cli.sandbox.configDir, "cairn", "config.json"), JSON.stringify({ retry: { delaysMs: [10] }, sandbox: "off", spendCap: { daily: 0.04 } }));
    const runs = servers.map((server, index) => startCli(["run", ...anthropicArgs(server), "--yes", `task ${index}`], { env: cli.sandbox.env, cwd: cli.sandbox.workspace }));
    const statuses = await Promise.all(runs.map((run) => run.exit));
    expect(statuses.sort(), runs.map((run) => run.stderr).join("\n")).toContain(3);
    const stopped = runs.find((run) => /spend cap/.test(run.stderr));
    expect(stopped?.stderr).toMatch(
      /the daily spend cap \(spendCap\.daily\) of \$0\.04 for this user \(all tasks of this data folder\) is reached: \$0\.0\d spent today \(UTC\) across tasks; it resets at \d{4}-\d\d-\d\d 00:00 UTC \(in .+\)/,
    );

    const day = new Date().toISOString().slice(0, 10);
    const charges = (await readFile(join(cli.sandbox.dataDir, "spend", `${day}.jsonl`), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { cost: number });
    const requests = servers.reduce((sum, server) => sum + server.requests.length, 0);
    // One line per request of either process, none lost or torn; the cap is passed by at most the requests in flight.
    expect(charges).toHaveLength(requests);
    expect(requests).toBeLessThan(8);
    const total = charges.reduce((sum, charge) => sum + charge.cost, 0);
    expect(total).toBeGreaterThanOrEqual(0.04);
    expect(total).toBeLessThan(0.04 + 2 * 0.0071);
    // A new task the same day stops before its first request: the journey src/journeys/team-lead-costs.test.ts.
  }, 60_000);
});
