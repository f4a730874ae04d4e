/**
 * Runs a suite: locally, cases side by side in this process through the same
 * job runner the workers use; or on the fleet (`--redis`), one job per case,
 * the check then run here on the base revision plus the job's patch.
 */
import type { JobData, JobOptions, JobResult } from "../fleet/job-spec.js";
import type { WorkerContext } from "../fleet/run-job.js";
import type { FleetContext } from "../fleet/fleet-context.js";
import { withState } from "../fleet/queue-inspect.js";
import { runCheck } from "./check-command.js";
import type { CaseResult, EvalReport } from "./eval-report.js";
import { totalsOf } from "./eval-report.js";
import { prepareRepositories } from "./prepare-repository.js";
import type { LoadedCase, LoadedSuite } from "./suite.js";

export function caseOptions(entry: LoadedCase): JobOptions {
  const budgets = { maxDurationMs: Math.round(entry.timeoutSeconds * 1000), ...(entry.maxTurns ? { maxTurns: entry.maxTurns } : {}) };
  if (entry.scenario) return { provider: "mock", scenario: entry.scenario, ...(entry.model?.toolProtocol ? { toolProtocol: entry.model.toolProtocol } : {}), budgets };
  const model = entry.model ?? {};
  return {
    ...(model.provider ? { provider: model.provider } : {}),
    ...(model.model ? { model: model.model } : {}),
    ...(model.profile ? { profile: model.profile } : {}),
    ...(model.baseUrl ? { baseUrl: model.baseUrl } : {}),
    ...(model.toolProtocol ? { toolProtocol: model.toolProtocol } : {}),
    budgets,
  };
}

async function pool<T>(items: readonly T[], concurrency: number, body: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    for (;;) {
      const index = next;
      next += 1;
      const item = items[index];
      if (item === undefined) return;
      await body(item, index);
    }
  });
  await Promise.all(lanes);
}

function fromResult(entry: LoadedCase, result: JobResult): CaseResult {
  return {
    name: entry.name,
    pass: result.status === "completed",
    status: result.status,
    ...(result.error ? { error: result.error } : {}),
    turns: result.turns,
    tokensIn: result.tokensIn,
    tokensOut: result.tokensOut,
    cost: result.cost,
    durationMs: result.durationMs,
  };
}

async function withCheck(entry: LoadedCase, result: CaseResult, workspace: string): Promise<CaseResult> {
  if (entry.check === undefined) return result;
  const check = await runCheck({ command: entry.check, cwd: workspace, timeoutMs: entry.timeoutSeconds * 1000 });
  return { ...result, pass: result.status === "completed" && check.exitCode === 0 && !check.timedOut, check };
}

async function jobFor(entry: LoadedCase, repo: string): Promise<JobData> {
  const { resolveRevision } = await import("../fleet/workspace.js");
  const baseRevision = await resolveRevision(repo, entry.ref);
  return { repo, ref: entry.ref, baseRevision, task: entry.task, options: caseOptions(entry), name: entry.name };
}

export async function runSuiteLocal(options: { suite: LoadedSuite; worker: WorkerContext; concurrency: number; onCase?: (result: CaseResult) => void }): Promise<EvalReport> {
  const { runJob } = await import("../fleet/run-job.js");
  const started = Date.now();
  const repositories = prepareRepositories();
  const results: CaseResult[] = new Array<CaseResult>(options.suite.cases.length);
  try {
    await pool(options.suite.cases, options.concurrency, async (entry, index) => {
      let result: CaseResult;
      try {
        const data = await jobFor(entry, await repositories.resolve(entry.repo));
        const outcome = await runJob({ jobId: `eval-${index}`, data, worker: { ...options.worker, keepWorkspace: true }, attempt: 1 });
        result = fromResult(entry, outcome.result);
        if (outcome.workspace) {
          try {
            result = await withCheck(entry, result, outcome.workspace.path);
          } finally {
            await outcome.workspace.remove();
          }
        }
      } catch (error) {
        result = { name: entry.name, pass: false, status: "failed", error: error instanceof Error ? error.message : String(error), turns: 0, tokensIn: 0, tokensOut: 0, cost: 0, durationMs: 0 };
      }
      results[index] = result;
      options.onCase?.(result);
    });
  } finally {
    await repositories.remove();
  }
  return { suite: options.suite.name, mode: "local", startedAt: new Date(started).toISOString(), wallMs: Date.now() - started, cases: results, totals: totalsOf(results) };
}

export async function runSuiteOnFleet(options: { suite: LoadedSuite; context: FleetContext; fallbackPollMs?: number; onCase?: (result: CaseResult) => void }): Promise<EvalReport> {
  const { Queue, QueueEvents } = await import("bullmq");
  const { addJobs } = await import("../fleet/queue-add.js");
  const { applyPatch, cloneWorkspace } = await import("../fleet/workspace.js");
  const { connectRedis } = await import("../fleet/redis-connection.js");
  const started = Date.now();
  const repositories = prepareRepositories();
  const queue = new Queue(options.context.queueName, { connection: options.context.redis });
  // QueueEvents reads BullMQ's event stream with a blocking read: it needs a connection of its own.
  const eventsConnection = await connectRedis(options.context.redisUrl);
  const events = new QueueEvents(options.context.queueName, { connection: eventsConnection });
  const finishedIds = new Set<string>();
  let wake: (() => void) | undefined;
  const onFinished = ({ jobId }: { jobId: string }): void => {
    finishedIds.add(jobId);
    wake?.();
  };
  events.on("completed", onFinished);
  events.on("failed", onFinished);
  const results: CaseResult[] = new Array<CaseResult>(options.suite.cases.length);
  try {
    await events.waitUntilReady();
    const jobs = await Promise.all(options.suite.cases.map(async (entry) => jobFor(entry, await repositories.resolve(entry.repo))));
    const ids = await addJobs(queue, jobs);
    const pending = new Map(ids.map((id, index) => [id, index]));
    let lastPoll = Date.now();
    while (pending.size > 0) {
      // Events say which jobs ended; now and then every pending job is looked at too, in case an event was missed.
      const poll = Date.now() - lastPoll >= (options.fallbackPollMs ?? 5000);
      if (poll) lastPoll = Date.now();
      for (const [id, index] of [...pending]) {
        if (!poll && !finishedIds.has(id)) continue;
        const fetched = await queue.getJob(id);
        const entry = options.suite.cases[index];
        const data = jobs[index];
        if (!entry || !data) continue;
        const { job, state } = fetched ? await withState(queue, fetched) : { job: undefined, state: "unknown" };
        if (state !== "completed" && state !== "failed" && state !== "unknown") continue;
        pending.delete(id);
        let result: CaseResult;
        const value = job?.returnvalue as JobResult | undefined;
        if (state !== "completed" || !value) {
          result = { name: entry.name, pass: false, status: "failed", error: job?.failedReason ?? "the job disappeared from the queue", turns: 0, tokensIn: 0, tokensOut: 0, cost: 0, durationMs: 0 };
        } else {
          result = fromResult(entry, value);
          if (entry.check !== undefined) {
            const workspace = await cloneWorkspace({ repo: data.repo, revision: value.baseRevision || (data.baseRevision ?? data.ref) });
            try {
              await applyPatch(workspace.path, value.patch);
              result = await withCheck(entry, result, workspace.path);
            } finally {
              await workspace.remove();
            }
          }
        }
        results[index] = result;
        options.onCase?.(result);
      }
      if (pending.size > 0 && ![...pending.keys()].some((id) => finishedIds.has(id))) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.fallbackPollMs ?? 5000);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    }
  } finally {
    // Disconnecting first ends QueueEvents' blocking read at once instead of when its block times out.
    eventsConnection.disconnect();
    await events.close();
    await queue.close();
    await repositories.remove();
  }
  return { suite: options.suite.name, mode: "fleet", startedAt: new Date(started).toISOString(), wallMs: Date.now() - started, cases: results, totals: totalsOf(results) };
}
