/**
 * `cairn queue watch JOB`: the task's messages from any machine, from a
 * snapshot of everything so far, then live, until the job ends. The lines are
 * the ones `cairn run --json` prints (the same HeadlessHost projection).
 */
import type { Queue } from "bullmq";
import type { Writable } from "node:stream";
import type { StoreLogEntry } from "../store/types.js";
import { HeadlessHost, jsonFormatVersion } from "../ui/headless/index.js";
import type { FleetContext } from "./fleet-context.js";
import { fieldValue } from "./log-mirror.js";
import { connectRedis } from "./redis-connection.js";

export async function watchJob(options: { queue: Queue; context: FleetContext; jobId: string; json: boolean; stdout: Writable; stderr: Writable; blockMs?: number }): Promise<number> {
  const { queue, context, jobId } = options;
  const job = await queue.getJob(jobId);
  if (!job) {
    options.stderr.write(`cairn: no job ${jobId} in queue ${context.queueName}\n`);
    return 2;
  }
  const taskId = (await context.redis.hget(context.keys.job(jobId), "taskId")) ?? jobId;
  const host = new HeadlessHost({ json: options.json, stdout: options.stdout, stderr: options.stderr, stdin: undefined, taskId, onAsk: "deny", yes: false, color: false });
  // XREAD BLOCK holds its connection: a client of its own.
  const reader = await connectRedis(context.redisUrl);
  let last = "0-0";
  try {
    for (;;) {
      const replies = await reader.xread("COUNT", 500, "BLOCK", options.blockMs ?? 1000, "STREAMS", context.keys.log(jobId), last);
      const entries = replies?.[0]?.[1] ?? [];
      for (const [id, fields] of entries) {
        last = id;
        const value = fieldValue(fields, "entry");
        if (value === undefined) continue;
        const entry = JSON.parse(value) as StoreLogEntry;
        if (entry.kind === "ui") host.onMessage(entry.message);
      }
      if (entries.length > 0) continue;
      const state = await job.getState();
      if (state === "completed" || state === "failed" || state === "unknown") {
        const fresh = await queue.getJob(jobId);
        const result = fresh?.returnvalue as { status?: string } | undefined;
        const status = state === "completed" ? (result?.status ?? "completed") : state;
        if (options.json) options.stdout.write(`${JSON.stringify({ v: jsonFormatVersion, type: "job", id: jobId, status })}\n`);
        else options.stdout.write(`job ${jobId}: ${status}\n`);
        return status === "completed" ? 0 : 1;
      }
    }
  } finally {
    host.close();
    await reader.quit().catch(() => reader.disconnect());
  }
}
