/** `cairn queue status`, `results` and `cancel`: what the fleet holds, seen from any machine. */
import type { Job, Queue } from "bullmq";
import type { JobResult } from "./job-spec.js";
import type { FleetContext } from "./fleet-context.js";

export interface JobReport {
  id: string;
  name: string | undefined;
  repo: string;
  task: string;
  /** waiting | running | completed | failed | cancelled | rejected */
  status: string;
  taskId: string | undefined;
  worker: string | undefined;
  patch: string;
  report: string | undefined;
  error: string | undefined;
  branch: string | undefined;
  turns: number;
  tokens: { input: number; output: number };
  cost: number;
  durationMs: number;
  attempts: number;
}

interface StoredJobData {
  repo?: string;
  task?: string;
  name?: string;
}

/**
 * A job and its state. The job was read before its state: one that finished in
 * between (BullMQ writes its result and finishing time in the same step as its
 * state) is read again, so a finished job is never seen without its result.
 */
export async function withState(queue: Queue, fetched: Job): Promise<{ job: Job; state: string }> {
  const state = await fetched.getState();
  const finishedSinceRead = (state === "completed" || state === "failed") && fetched.finishedOn === undefined;
  return { job: (finishedSinceRead ? await queue.getJob(fetched.id ?? "") : undefined) ?? fetched, state };
}

export async function reportOf(fetched: Job, context: FleetContext, queue: Queue): Promise<JobReport> {
  const { job, state } = await withState(queue, fetched);
  const data = (job.data ?? {}) as StoredJobData;
  const result = job.returnvalue as JobResult | null | undefined;
  const running = await context.redis.hgetall(context.keys.job(job.id ?? ""));
  const base: JobReport = {
    id: job.id ?? "",
    name: data.name,
    repo: data.repo ?? "",
    task: data.task ?? "",
    status: state === "active" ? "running" : state === "waiting" || state === "delayed" || state === "prioritized" ? "waiting" : state,
    taskId: running["taskId"],
    worker: running["worker"],
    patch: "",
    report: undefined,
    error: state === "failed" ? job.failedReason : undefined,
    branch: undefined,
    turns: 0,
    tokens: { input: 0, output: 0 },
    cost: 0,
    durationMs: job.finishedOn !== undefined && job.processedOn !== undefined ? job.finishedOn - job.processedOn : 0,
    attempts: job.attemptsStarted,
  };
  if (state !== "completed" || result === null || result === undefined) return base;
  return {
    ...base,
    status: result.status,
    taskId: result.taskId,
    worker: result.worker,
    patch: result.patch,
    report: result.report,
    error: result.error,
    branch: result.branch,
    turns: result.turns,
    tokens: { input: result.tokensIn, output: result.tokensOut },
    cost: result.cost,
    durationMs: result.durationMs,
    attempts: Math.max(result.attempts, job.attemptsStarted),
  };
}

export async function queueStatus(queue: Queue, context: FleetContext): Promise<{ counts: Record<string, number>; running: JobReport[]; waiting: number }> {
  const counts = await queue.getJobCounts("waiting", "active", "completed", "failed", "delayed", "prioritized");
  const active = await queue.getJobs(["active"], 0, 99, true);
  return { counts, running: await Promise.all(active.map((job) => reportOf(job, context, queue))), waiting: (counts["waiting"] ?? 0) + (counts["prioritized"] ?? 0) };
}

export async function allReports(queue: Queue, context: FleetContext): Promise<JobReport[]> {
  const jobs = await queue.getJobs(["completed", "failed", "active", "waiting", "delayed", "prioritized"], 0, -1, true);
  const reports = await Promise.all(jobs.map((job) => reportOf(job, context, queue)));
  return reports.sort((left, right) => Number(left.id) - Number(right.id) || left.id.localeCompare(right.id));
}

/** Marks the job cancelled and tells whichever worker runs it; a waiting job is cancelled when a worker picks it up. */
export async function cancelJob(queue: Queue, context: FleetContext, jobId: string): Promise<"running" | "waiting" | "finished" | "unknown"> {
  const job = await queue.getJob(jobId);
  if (!job) return "unknown";
  const state = await job.getState();
  if (state === "completed" || state === "failed") return "finished";
  await context.redis.set(context.keys.cancelled(jobId), "1", "EX", context.fleet.retentionSeconds);
  await context.redis.publish(context.keys.cancelChannel, jobId);
  return state === "active" ? "running" : "waiting";
}

export function formatTable(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

export function reportRows(reports: JobReport[]): string[][] {
  return [
    ["JOB", "STATUS", "TURNS", "TOKENS", "COST", "TIME", "ATTEMPTS", "TASK"],
    ...reports.map((report) => [
      report.id,
      report.status,
      String(report.turns),
      String(report.tokens.input + report.tokens.output),
      `$${report.cost.toFixed(4)}`,
      `${(report.durationMs / 1000).toFixed(1)}s`,
      String(report.attempts),
      (report.name ?? report.task).split("\n")[0]?.slice(0, 50) ?? "",
    ]),
  ];
}
