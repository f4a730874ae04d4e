/** The actions of `cairn queue ...`, loaded only when one of them runs. */
import { environmentWithSecrets } from "../security/secret-environment.js";
import type { Queue } from "bullmq";
import { openFleet, type FleetContext } from "./fleet-context.js";
import { addJobs, JobInputError, jobsFromFile, optionsFromFlags, prepareJob, type QueueAddFlags } from "./queue-add.js";
import { allReports, cancelJob, formatTable, queueStatus, reportOf, reportRows } from "./queue-inspect.js";
import { watchJob } from "./queue-watch.js";
import { FleetConfigError } from "./redis-connection.js";

export interface ConnectionFlags {
  redis?: string;
  queue?: string;
  json?: boolean;
}

async function withQueue(flags: ConnectionFlags, body: (queue: Queue, context: FleetContext) => Promise<number>): Promise<number> {
  let context: FleetContext;
  try {
    context = await openFleet({ redisFlag: flags.redis, queueFlag: flags.queue, env: environmentWithSecrets() });
  } catch (error) {
    if (error instanceof FleetConfigError) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const { Queue } = await import("bullmq");
  const queue = new Queue(context.queueName, { connection: context.redis });
  try {
    return await body(queue, context);
  } catch (error) {
    if (error instanceof JobInputError) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    await queue.close();
    await context.close();
  }
}

export function queueAdd(words: string[], flags: QueueAddFlags & ConnectionFlags): Promise<number> {
  const task = words.join(" ").trim();
  if (flags.file === undefined && (flags.repo === undefined || task === "")) {
    process.stderr.write("cairn: give --repo URL_OR_PATH and a task, or --file tasks.jsonl\n");
    return Promise.resolve(2);
  }
  return withQueue(flags, async (queue) => {
    const options = await optionsFromFlags(flags);
    const jobs = flags.file !== undefined ? await jobsFromFile(flags.file, options, process.cwd()) : [await prepareJob({ repo: flags.repo ?? "", ref: flags.ref, task, options, name: flags.name }, process.cwd())];
    const ids = await addJobs(queue, jobs);
    for (const id of ids) process.stdout.write(`${id}\n`);
    return 0;
  });
}

export function queueStatusCommand(flags: ConnectionFlags): Promise<number> {
  return withQueue(flags, async (queue, context) => {
    const status = await queueStatus(queue, context);
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ queue: context.queueName, counts: status.counts, running: status.running.map(({ patch: _patch, ...rest }) => rest) })}\n`);
      return 0;
    }
    const counts = status.counts;
    process.stdout.write(
      `queue ${context.queueName}: ${status.waiting} waiting, ${counts["active"] ?? 0} running, ${counts["completed"] ?? 0} finished, ${counts["failed"] ?? 0} failed, ${counts["delayed"] ?? 0} delayed\n`,
    );
    for (const job of status.running) process.stdout.write(`  ${job.id}  running on ${job.worker ?? "?"}  task ${job.taskId ?? "-"}  ${job.task.split("\n")[0]?.slice(0, 60) ?? ""}\n`);
    return 0;
  });
}

export function queueWatch(jobId: string, flags: ConnectionFlags): Promise<number> {
  return withQueue(flags, (queue, context) => watchJob({ queue, context, jobId, json: flags.json === true, stdout: process.stdout, stderr: process.stderr }));
}

export function queueCancel(jobId: string, flags: ConnectionFlags): Promise<number> {
  return withQueue(flags, async (queue, context) => {
    const state = await cancelJob(queue, context, jobId);
    switch (state) {
      case "unknown":
        process.stderr.write(`cairn: no job ${jobId} in queue ${context.queueName}\n`);
        return 2;
      case "finished":
        process.stderr.write(`cairn: job ${jobId} has already finished\n`);
        return 1;
      case "running":
        process.stdout.write(`cancel sent to job ${jobId} (running); it stops as Ctrl-C stops cairn run\n`);
        return 0;
      case "waiting":
        process.stdout.write(`job ${jobId} cancelled (it had not started)\n`);
        return 0;
    }
  });
}

export function queueResults(jobId: string | undefined, flags: ConnectionFlags): Promise<number> {
  return withQueue(flags, async (queue, context) => {
    let reports;
    if (jobId !== undefined) {
      const job = await queue.getJob(jobId);
      if (!job) {
        process.stderr.write(`cairn: no job ${jobId} in queue ${context.queueName}\n`);
        return 2;
      }
      reports = [await reportOf(job, context, queue)];
    } else {
      reports = await allReports(queue, context);
    }
    if (flags.json) {
      for (const report of reports) process.stdout.write(`${JSON.stringify(report)}\n`);
      return 0;
    }
    process.stdout.write(`${formatTable(reportRows(reports))}\n`);
    if (jobId !== undefined && reports[0]) {
      const report = reports[0];
      if (report.report) process.stdout.write(`\n${report.report}\n`);
      if (report.error) process.stdout.write(`\nerror: ${report.error}\n`);
      if (report.patch) process.stdout.write(`\n${report.patch}`);
    }
    return 0;
  });
}
