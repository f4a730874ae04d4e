/** What `cairn queue results` reports, read from a real redis-server through BullMQ. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue, Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFleet, type FleetContext } from "./fleet-context.js";
import type { JobResult } from "./job-spec.js";
import { reportOf } from "./queue-inspect.js";
import { hasRedisServer, startTestRedis, type TestRedis } from "./test-support/redis-server.js";

describe.skipIf(!hasRedisServer)("a job's report", () => {
  let redis: TestRedis;
  let context: FleetContext;
  let configDir: string;
  beforeAll(async () => {
    redis = await startTestRedis();
    configDir = await mkdtemp(join(tmpdir(), "cairn-queue-inspect-"));
    context = await openFleet({ redisFlag: redis.url, queueFlag: "inspect", env: {}, userConfigDir: configDir });
  });
  afterAll(async () => {
    await context?.close();
    await redis?.stop();
    if (configDir) await rm(configDir, { recursive: true, force: true });
  });

  it("of a job that finished after it was read carries its result, not an empty completed row", async () => {
    const queue = new Queue(context.queueName, { connection: context.redis });
    const added = await queue.add("job", { repo: "/r", task: "write a.txt", name: "job-a" });
    // Read while it waits, as `cairn queue results` reads every job before asking each one's state.
    const readBeforeItRan = await queue.getJob(added.id ?? "");
    const result: JobResult = {
      status: "completed",
      taskId: "t1",
      report: "Wrote a.txt",
      patch: "+++ b/a.txt",
      baseRevision: "",
      branch: undefined,
      turns: 2,
      tokensIn: 10,
      tokensOut: 5,
      cost: 0,
      worker: "w1",
      attempts: 1,
      error: undefined,
      durationMs: 1,
    };
    const worker = new Worker(context.queueName, async () => result, { connection: { url: redis.url } });
    try {
      await new Promise<void>((resolve) => worker.on("completed", () => resolve()));
    } finally {
      await worker.close();
    }
    const report = await reportOf(readBeforeItRan!, context, queue);
    expect(report.status).toBe("completed");
    expect(report.report).toBe("Wrote a.txt");
    expect(report.patch).toBe("+++ b/a.txt");
    expect(report.turns).toBe(2);
    await queue.close();
  });
});
