/**
 * #14 budgets count fleet retries: a job taken over after its worker died
 * resumes the same task, and its budget goes on from what the dead worker
 * spent (the dead run wrote no totals; they come from its mirrored requests).
 */
import { describe, expect, it } from "vitest";
import { hasRedisServer } from "./test-support/redis-server.js";
import { useFleetSandbox } from "./test-support/fleet-harness.js";

if (!hasRedisServer) console.warn('SKIPPED the fleet budget test: redis-server (Debian package "redis-server") is not installed');

const fleetSandbox = useFleetSandbox();

describe.skipIf(!hasRedisServer)("budgets carry over when another worker takes a job over", () => {
  it("kill -9 of a worker mid-task: the worker that takes the job over continues the task's token budget, it does not restart it", async () => {
    // The workers' own budget (their user config): 2000 tokens for the whole task.
    const fleet = await fleetSandbox({ config: { budget: { maxTokens: 2000 } } });
    const usage = { inputTokens: 1000, outputTokens: 500 };
    const server = await fleet.serve({
      turns: [
        { text: "<write_to_file>\n<path>a.txt</path>\n<content>\nfirst step\n</content>\n</write_to_file>", usage },
        // The worker dies while this answer hangs.
        { text: "never finished", stallAfterChunks: 2 },
        { text: "<write_to_file>\n<path>b.txt</path>\n<content>\nafter the takeover\n</content>\n</write_to_file>", usage },
        { text: "<attempt_completion>\n<result>\nBoth files written\n</result>\n</attempt_completion>", usage },
      ],
    });
    const first = await fleet.startWorker("first");
    const added = await fleet.cli(["queue", "add", "--repo", fleet.repo, "--base-url", server.url, "write a.txt then b.txt"]);
    const jobId = added.stdout.trim();
    await server.waitForChunks(1, 2);
    first.child.kill("SIGKILL");
    await first.exit;

    await fleet.startWorker("second");
    const report = await fleet.waitFor(
      "the job to end on the second worker",
      async () => {
        const found = (await fleet.results()).find((entry) => entry.id === jobId);
        return found && found.status !== "running" && found.status !== "waiting" ? found : undefined;
      },
      90_000,
    );
    expect(report.worker).toBe("second");
    expect(report.attempts).toBe(2);
    // 1500 tokens on the first worker, 1500 on the second: the task's 2000 are spent before its last request.
    expect(report.status).toBe("failed");
    expect(report.error).toMatch(/Budget reached: --max-tokens 2000 \(3000 tokens used\)/);
    expect(report.patch).toContain("+after the takeover");
    expect(server.requests).toHaveLength(3);
  }, 150_000);
});
