/**
 * Spend caps across tasks (#36) on a fleet: two workers of one queue add what
 * their tasks spend to the same Redis keys, so a job started after the others
 * spent the fleet's daily cap stops before its first request, whichever worker
 * runs it, with the message that names the cap and its reset.
 */
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { hasRedisServer } from "./test-support/redis-server.js";
import { useFleetSandbox } from "./test-support/fleet-harness.js";
import { connectRedis } from "./redis-connection.js";

if (!hasRedisServer) console.warn('SKIPPED the fleet spend cap test: redis-server (Debian package "redis-server") is not installed');

const fleetSandbox = useFleetSandbox();
const usage = { inputTokens: 1000, outputTokens: 500 };

/** Two requests of $0.007 each on the default Anthropic model. */
function writeThenComplete(name: string): Scenario {
  return {
    turns: [
      { text: `<write_to_file>\n<path>${name}</path>\n<content>\n${name}\n</content>\n</write_to_file>`, usage },
      { text: `<attempt_completion>\n<result>\nWrote ${name}\n</result>\n</attempt_completion>`, usage },
    ],
  };
}

describe.skipIf(!hasRedisServer)("a fleet's spend cap", () => {
  it("two workers share one daily cap in Redis: a job on the second worker stops once the first worker's job and its own spent it", async () => {
    // A job costs 2 × $0.007 on the workers' default model: one is under the cap, one and a half are over it.
    const fleet = await fleetSandbox({ config: { spendCap: { daily: 0.02 } } });
    const first = await fleet.serve(writeThenComplete("a.txt"));
    const one = await fleet.startWorker("one");
    await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", first.url, "job one"]);
    const [done] = await fleet.waitFor("the first job", async () => {
      const reports = await fleet.results();
      return reports.some((report) => report.status === "completed") ? reports : undefined;
    });
    expect(done?.worker).toBe("one");
    const redis = await connectRedis(fleet.redis.url);
    const day = new Date().toISOString().slice(0, 10);
    try {
      expect(Number(await redis.get(`cairn-fleet:cairn:spend:${day}`))).toBeCloseTo(done?.cost ?? -1, 6);
      expect(Number(await redis.get(`cairn-fleet:cairn:spend:${day.slice(0, 7)}`))).toBeCloseTo(done?.cost ?? -1, 6);
      expect(await redis.ttl(`cairn-fleet:cairn:spend:${day}`)).toBeGreaterThan(86_400);
    } finally {
      redis.disconnect();
    }
    one.child.kill("SIGKILL");
    await one.exit;

    await fleet.startWorker("two");
    const second = await fleet.serve(writeThenComplete("b.txt"));
    const added = await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", second.url, "job two"]);
    const jobId = added.stdout.trim();
    const stopped = await fleet.waitFor("the second job", async () => {
      const found = (await fleet.results()).find((report) => report.id === jobId);
      return found && found.status !== "running" && found.status !== "waiting" ? found : undefined;
    });
    expect(stopped.worker, JSON.stringify(stopped)).toBe("two");
    expect(stopped.status, JSON.stringify(stopped)).toBe("failed");
    expect(stopped.error).toMatch(
      /Spend cap reached: the daily spend cap \(spendCap\.daily\) of \$0\.02 for the fleet \(all workers of queue cairn\) is reached: \$0\.02 spent today \(UTC\) across tasks; it resets at \d{4}-\d\d-\d\d 00:00 UTC/,
    );
    expect(second.requests).toHaveLength(1);
  }, 120_000);
});
