/**
 * `cairn worker`: takes jobs from the queue and runs them, `--concurrency` at
 * a time. A dead worker's jobs go to another worker through BullMQ's stalled
 * job detection (its lock stops being renewed); a cancel reaches the job
 * through a Redis channel every worker listens to.
 */
import { environmentWithSecrets } from "../security/secret-environment.js";
import { hostname } from "node:os";
import type { Job } from "bullmq";
import type { CliFlags, ResolvedSettings } from "../config/index.js";
import { ConfigError, resolveSettings } from "../config/index.js";
import { openFleet } from "./fleet-context.js";
import { describeSchemaError, jobDataSchema, type JobData, type JobResult } from "./job-spec.js";
import { FleetConfigError, redactUrl } from "./redis-connection.js";
import { runJob, type WorkerContext } from "./run-job.js";
import { connectRedis } from "./redis-connection.js";

export interface WorkerCommandOptions extends CliFlags {
  redis?: string;
  queue?: string;
  concurrency?: string;
  workDir?: string;
  name?: string;
}

export async function runWorkerCommand(flags: WorkerCommandOptions): Promise<number> {
  const concurrency = Number(flags.concurrency ?? "1");
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    process.stderr.write(`cairn: --concurrency ${flags.concurrency ?? ""}: give a whole number from 1 to 64\n`);
    return 2;
  }
  const { redis: redisFlag, queue: queueFlag, concurrency: _concurrency, workDir, name: nameFlag, ...taskFlags } = flags;
  let settings: ResolvedSettings;
  try {
    settings = await resolveSettings({ flags: { ...taskFlags, json: true }, env: environmentWithSecrets(), cwd: process.cwd() });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  // Once, when the worker starts (#14): its jobs run without the sandbox unless it opted in or a job asks for one.
  if (settings.sandboxNotice !== undefined) process.stderr.write(`cairn: ${settings.sandboxNotice}\n`);
  let context;
  try {
    context = await openFleet({ redisFlag, queueFlag, env: environmentWithSecrets(), userConfigDir: settings.userConfigDir, patient: true });
  } catch (error) {
    if (error instanceof FleetConfigError) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const { Worker, UnrecoverableError } = await import("bullmq");
  const name = nameFlag ?? `${hostname()}:${process.pid}`;
  const say = (line: string): void => {
    process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  };
  const workerContext: WorkerContext = {
    settings,
    flags: taskFlags,
    fleet: context.fleet,
    env: environmentWithSecrets(),
    cwd: process.cwd(),
    name,
    workRoot: workDir,
    log: say,
  };

  /** Jobs running here, to stop when their lock is lost. */
  const lostLocks = new Map<string, AbortController>();
  const processor = async (job: Job<unknown, JobResult>, _token?: string, signal?: AbortSignal): Promise<JobResult> => {
    const jobId = job.id ?? "";
    const parsed = jobDataSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(describeSchemaError(parsed.error, `job ${jobId} is not a cairn job`));
    const data: JobData = parsed.data;
    const attempt = Math.max(1, job.attemptsStarted);
    if ((await context.redis.exists(context.keys.cancelled(jobId))) === 1) {
      say(`job ${jobId}: cancelled before it started`);
      return cancelledResult(data, name, attempt);
    }
    say(`job ${jobId}: started (attempt ${attempt})`);
    const lockLost = new AbortController();
    lostLocks.set(jobId, lockLost);
    let outcome;
    try {
      outcome = await runJob({ jobId, data, worker: workerContext, fleet: { redis: context.redis, keys: context.keys, queueName: context.queueName }, signal, lockLost: lockLost.signal, attempt });
    } finally {
      lostLocks.delete(jobId);
    }
    const result = outcome.result;
    await context.redis
      .multi()
      .expire(context.keys.log(jobId), context.fleet.retentionSeconds)
      .expire(context.keys.patch(jobId), context.fleet.retentionSeconds)
      .expire(context.keys.job(jobId), context.fleet.retentionSeconds)
      .exec();
    say(`job ${jobId}: ${result.status}${result.error ? ` (${result.error})` : ""} in ${(result.durationMs / 1000).toFixed(1)} s`);
    return result;
  };

  const worker = new Worker<unknown, JobResult>(context.queueName, processor, {
    connection: context.redis,
    concurrency,
    lockDuration: context.fleet.lockDurationMs,
    stalledInterval: context.fleet.stalledIntervalMs,
    maxStalledCount: context.fleet.maxStalledCount,
    autorun: false,
  });
  worker.on("error", (error) => {
    // A lost lock is said once, below; BullMQ repeats it at every renewal.
    if (!/could not renew lock/.test(error.message)) say(`worker error: ${error.message}`);
  });
  worker.on("failed", (job, error) => say(`job ${job?.id ?? "?"}: failed: ${error.message}`));
  worker.on("lockRenewalFailed", (jobIds) => {
    for (const jobId of jobIds) {
      const running = lostLocks.get(jobId);
      if (!running || running.signal.aborted) continue;
      say(`job ${jobId}: lost its lock (this worker was too slow to renew it); leaving it to the worker that takes it over`);
      running.abort();
    }
  });

  // Cancels come over pub/sub; a subscribed client can do nothing else, so it is a second connection.
  const subscriber = await connectRedis(context.redisUrl);
  await subscriber.subscribe(context.keys.cancelChannel);
  subscriber.on("message", (_channel: string, jobId: string) => {
    if (worker.cancelJob(jobId, "cancelled by cairn queue cancel")) say(`job ${jobId}: cancel received`);
  });

  let stopping = 0;
  const stopped = new Promise<void>((resolve) => {
    const onSignal = (): void => {
      stopping += 1;
      if (stopping === 1) {
        say("stopping: no new jobs; waiting for the running ones (signal again to leave them to other workers)");
        void worker.close().then(resolve, resolve);
      } else {
        say("leaving running jobs to other workers");
        void worker.close(true).then(resolve, resolve);
      }
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });

  void worker.run();
  await worker.waitUntilReady();
  say(`worker ${name}: listening on queue ${context.queueName} at ${redactUrl(context.redisUrl)} (concurrency ${concurrency})`);
  await stopped;
  await subscriber.quit().catch(() => subscriber.disconnect());
  await context.close();
  return 0;
}

function cancelledResult(data: JobData, worker: string, attempts: number): JobResult {
  return {
    status: "cancelled",
    taskId: undefined,
    report: undefined,
    error: "cancelled by cairn queue cancel before it started",
    patch: "",
    baseRevision: data.baseRevision ?? "",
    branch: undefined,
    turns: 0,
    tokensIn: 0,
    tokensOut: 0,
    cost: 0,
    durationMs: 0,
    worker,
    attempts,
  };
}
