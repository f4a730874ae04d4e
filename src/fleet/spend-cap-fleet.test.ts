/**
 * Spend caps across tasks (#36) on a fleet: two workers of one queue add what
 * their tasks spend to the same Redis keys, so a job started after the others
 * spent the fleet's daily cap stops before its first request, whichever worker
 * runs it, with the message that names the cap and its reset. The workers also
 * export traces: a job's task continues the trace of whoever added it.
 */
import { describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { hasRedisServer } from "./test-support/redis-server.js";
import { useFleetSandbox } from "./test-support/fleet-harness.js";
import { connectRedis } from "./redis-connection.js";
import { startOtlpReceiver } from "../telemetry/test-support/otlp-receiver.js";

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
    const collector = await startOtlpReceiver();
    const fleet = await fleetSandbox({ config: { spendCap: { daily: 0.02 }, telemetry: { endpoint: collector.url, protocol: "http/json" } } });
    const first = await fleet.serve(writeThenComplete("a.txt"));
    const one = await fleet.startWorker("one");
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", first.url, "job one"], { TRACEPARENT: traceparent });
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
    // The job's task is a trace under the span of whoever added the job, its requests and tools under it.
    const task = collector.spans.find((span) => span.name === "cairn.task" && span.traceId === "4bf92f3577b34da6a3ce929d0e0e4736");
    expect(task).toMatchObject({ parentSpanId: "00f067aa0ba902b7", attributes: { "cairn.task.status": "completed" } });
    expect(
      collector.spans
        .filter((span) => span.parentSpanId === task?.spanId)
        .map((span) => span.name.replace(/^chat .*/, "chat"))
        .sort(),
    ).toEqual(["chat", "chat", "tool attempt_completion", "tool write_to_file"]);
    await collector.close();
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
