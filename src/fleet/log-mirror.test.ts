/**
 * Issue #19 "nothing lost": the mirror keeps the log's order, writes a step's
 * patch with the entry that follows the step, and survives a Redis restart.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { TaskLogEntry } from "../task/contracts/seams.js";
import { fleetKeys } from "./keys.js";
import { claimMirror, LogMirror, MirrorFencedError, readMirroredLog } from "./log-mirror.js";
import { connectRedis, type RedisClient } from "./redis-connection.js";
import { hasRedisServer, startTestRedis, type TestRedis } from "./test-support/redis-server.js";

let redis: TestRedis | undefined;
let client: RedisClient | undefined;
afterEach(async () => {
  client?.disconnect();
  await redis?.stop();
  client = undefined;
  redis = undefined;
});

const user = (text: string): TaskLogEntry => ({ kind: "api", message: { role: "user", content: [{ type: "text", text }] } });
const assistant = (text: string): TaskLogEntry => ({ kind: "api", message: { role: "assistant", content: [{ type: "text", text }] } });

describe.skipIf(!hasRedisServer)("the log mirror keeps a task's entries in order", () => {
  it("entries arrive in order; each step's patch is stored with the user turn that follows it; the task's first turn stores none", async () => {
    redis = await startTestRedis();
    client = await connectRedis(redis.url);
    const keys = fleetKeys("mirror-test");
    let step = 0;
    const patches: string[] = [];
    const fence = await claimMirror(client, keys, "7");
    const mirror = new LogMirror({ redis: client, keys, jobId: "7", fence, patchNow: () => `patch after step ${step}`, onEntry: () => {} });
    const local: TaskLogEntry[] = [];
    const log = mirror.wrap({ append: (entry) => local.push(entry), flush: async () => {} });
    log.append(user("the task"));
    for (step = 1; step <= 50; step += 1) {
      log.append(assistant(`answer ${step}`));
      log.append(user(`results of step ${step}`));
      if (step === 25) {
        await mirror.flush();
        patches.push((await client.get(keys.patch("7"))) ?? "");
      }
    }
    await log.flush();
    const entries = await readMirroredLog(client, keys, "7");
    expect(entries).toEqual(local);
    expect(entries).toHaveLength(101);
    expect(patches).toEqual(["patch after step 25"]);
    expect(await client.get(keys.patch("7"))).toBe("patch after step 50");
  });

  it("writes made while Redis restarts are kept, in order", async () => {
    redis = await startTestRedis();
    client = await connectRedis(redis.url);
    const keys = fleetKeys("mirror-restart");
    const mirror = new LogMirror({ redis: client, keys, jobId: "1", fence: await claimMirror(client, keys, "1"), patchNow: () => "" });
    const log = mirror.wrap({ append: () => {}, flush: async () => {} });
    log.append(user("before"));
    await log.flush();
    const restarting = redis.restart({ downMs: 800 });
    for (let index = 0; index < 20; index += 1) log.append(assistant(`during ${index}`));
    await restarting;
    log.append(assistant("after"));
    await log.flush();
    const entries = await readMirroredLog(client, keys, "1");
    expect(entries.map((entry) => (entry.kind === "api" ? (entry.message.content[0] as { text: string }).text : ""))).toEqual(["before", ...Array.from({ length: 20 }, (_, index) => `during ${index}`), "after"]);
  }, 30_000);

  it("a worker whose job was taken over (a newer fencing token) can append nothing more: its writes are refused whole, the new worker's go on", async () => {
    redis = await startTestRedis();
    client = await connectRedis(redis.url);
    const keys = fleetKeys("mirror-fence");
    const stale = new LogMirror({ redis: client, keys, jobId: "3", fence: await claimMirror(client, keys, "3"), patchNow: () => "stale patch" });
    const staleLog = stale.wrap({ append: () => {}, flush: async () => {} });
    staleLog.append(user("the task"));
    staleLog.append(assistant("stale step 1"));
    await staleLog.flush();

    // The worker froze; another took the job over and claimed the mirror.
    const fresh = new LogMirror({ redis: client, keys, jobId: "3", fence: await claimMirror(client, keys, "3"), patchNow: () => "fresh patch", resumed: true });
    const freshLog = fresh.wrap({ append: () => {}, flush: async () => {} });

    // The frozen worker wakes up and writes a step (a patch and an entry).
    staleLog.append(user("stale results"));
    staleLog.append(assistant("stale step 2"));
    await expect(staleLog.flush()).rejects.toBeInstanceOf(MirrorFencedError);
    freshLog.append(user("fresh results"));
    await freshLog.flush();
    staleLog.append(assistant("stale step 3")); // a detached mirror writes nothing more

    const entries = await readMirroredLog(client, keys, "3");
    expect(entries.map((entry) => (entry.kind === "api" ? (entry.message.content[0] as { text: string }).text : ""))).toEqual(["the task", "stale step 1", "fresh results"]);
    expect(await client.get(keys.patch("3"))).toBe("fresh patch");
  });
});
