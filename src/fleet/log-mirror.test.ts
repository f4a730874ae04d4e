/**
 * Issue #19 "nothing lost": the mirror keeps the log's order, writes a step's
 * patch with the entry that follows the step, and survives a Redis restart.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { TaskLogEntry } from "../task/contracts/seams.js";
import { fleetKeys } from "./keys.js";
import { LogMirror, readMirroredLog } from "./log-mirror.js";
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

describe.skipIf(!hasRedisServer)("the log mirror (issue #19)", () => {
  it("#19 entries arrive in order; each step's patch is stored with the user turn that follows it; the task's first turn stores none", async () => {
    redis = await startTestRedis();
    client = await connectRedis(redis.url);
    const keys = fleetKeys("mirror-test");
    let step = 0;
    const patches: string[] = [];
    const mirror = new LogMirror({ redis: client, keys, jobId: "7", patchNow: () => `patch after step ${step}` , onEntry: () => {} });
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

  it("#19 writes made while Redis restarts are kept, in order", async () => {
    redis = await startTestRedis();
    client = await connectRedis(redis.url);
    const keys = fleetKeys("mirror-restart");
    const mirror = new LogMirror({ redis: client, keys, jobId: "1", patchNow: () => "" });
    const log = mirror.wrap({ append: () => {}, flush: async () => {} });
    log.append(user("before"));
    await log.flush();
    const restarting = redis.restart({ downMs: 800 });
    for (let index = 0; index < 20; index += 1) log.append(assistant(`during ${index}`));
    await restarting;
    log.append(assistant("after"));
    await log.flush();
    const entries = await readMirroredLog(client, keys, "1");
    expect(entries.map((entry) => (entry.kind === "api" ? (entry.message.content[0] as { text: string }).text : ""))).toEqual([
      "before",
      ...Array.from({ length: 20 }, (_, index) => `during ${index}`),
      "after",
    ]);
  }, 30_000);
});
