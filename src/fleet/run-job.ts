/**
 * One job, start to end, on this machine: a fresh clone at the base revision,
 * the Task run headless through the same session wiring as `cairn run`, and
 * the result (status, report, patch, usage). With Redis, the log is mirrored
 * and a takeover continues a dead worker's task; without (`cairn eval
 * --local`), the same code runs the job in process.
 */
import { Writable } from "node:stream";
import { join, dirname } from "node:path";
import type { CliFlags, ResolvedSettings } from "../config/index.js";
import { resolveSettings } from "../config/index.js";
import { createSession } from "../session/session.js";
import { hasSpendCap } from "../security/spend-cap.js";
import { RedisSpendLedger } from "./spend-redis-ledger.js";
import { HeadlessHost } from "../ui/headless/index.js";
import { requireApiKey } from "../config/index.js";
import type { TaskLogEntry } from "../task/contracts/seams.js";
import type { FleetSettings } from "./fleet-settings.js";
import type { JobData, JobResult } from "./job-spec.js";
import type { FleetKeys } from "./keys.js";
import { claimMirror, LogMirror, readMirroredLog } from "./log-mirror.js";
import { JobRejectedError, narrowSettings, providerFlagsFor } from "./narrow-settings.js";
import { applySecurityNarrowing } from "./apply-security.js";
import type { RedisClient } from "./redis-connection.js";
import { entriesAfter, rebuildLocalTask, summarizeEntries } from "./resume-from-mirror.js";
import { SharedLimits, limitedProvider, providerKeyHash, type Spending } from "./shared-limits.js";
import { applyPatch, cloneWorkspace, pushBranch, workspacePatch, workspacePatchSync } from "./workspace.js";

export interface WorkerContext {
  /** The worker's own settings: a job narrows them. */
  settings: ResolvedSettings;
  flags: CliFlags;
  fleet: FleetSettings;
  env: NodeJS.ProcessEnv;
  /** Where the worker was started (its settings are resolved there, never in the job's clone). */
  cwd: string;
  name: string;
  /** Where job folders are made (default the system's temporary folder). */
  workRoot?: string | undefined;
  /** Keep the job's workspace after it ends (for eval checks); the caller removes it. */
  keepWorkspace?: boolean;
  log?: (line: string) => void;
}

export interface FleetConnection {
  redis: RedisClient;
  keys: FleetKeys;
  /** The queue's name, for messages (spend caps are per queue). */
  queueName?: string;
}

export interface RunJobOptions {
  jobId: string;
  data: JobData;
  worker: WorkerContext;
  fleet?: FleetConnection | undefined;
  /** Aborts the task (cancel): a staged abort, as Ctrl-C in `cairn run`. */
  signal?: AbortSignal | undefined;
  /**
   * Aborted when this worker lost the job's lock (its event loop stalled past
   * the lock duration): another worker may own the job now, so this one stops
   * writing to the job's log and ends its task without a word.
   */
  lockLost?: AbortSignal | undefined;
  attempt: number;
}

export interface RunJobOutcome {
  result: JobResult;
  /** Present with `keepWorkspace`. */
  workspace?: { path: string; remove(): Promise<void> };
}

const nullOutput = (): Writable => new Writable({ write: (_chunk, _encoding, callback) => callback() });

export async function runJob(options: RunJobOptions): Promise<RunJobOutcome> {
  const started = Date.now();
  const { data, worker, fleet, jobId } = options;
  const base = {
    taskId: undefined as string | undefined,
    report: undefined as string | undefined,
    patch: "",
    baseRevision: data.baseRevision ?? "",
    branch: undefined as string | undefined,
    turns: 0,
    tokensIn: 0,
    tokensOut: 0,
    cost: 0,
    worker: worker.name,
    attempts: options.attempt,
  };
  const finish = (fields: Partial<JobResult> & Pick<JobResult, "status">): JobResult => ({ ...base, error: undefined, durationMs: Date.now() - started, ...fields });

  let settings: ResolvedSettings;
  let narrowed;
  try {
    const flags = providerFlagsFor({ job: data.options, worker: worker.settings, fleet: worker.fleet, workerFlags: worker.flags });
    const resolved = await resolveSettings({ flags: { ...flags, json: true }, env: worker.env, cwd: worker.cwd });
    narrowed = narrowSettings({ resolved, worker: worker.settings, job: data.options, fleet: worker.fleet });
    settings = await applySecurityNarrowing({ settings: narrowed.settings, budgets: narrowed.budgets, jobPermissions: narrowed.permissions, sandbox: narrowed.sandbox });
    if (settings.provider === "mock" && data.options.scenario === undefined) throw new JobRejectedError("the job uses the mock provider but carries no scenario");
  } catch (error) {
    return { result: finish({ status: "rejected", error: error instanceof Error ? error.message : String(error) }) };
  }

  const workspace = await cloneWorkspace({ repo: data.repo, revision: data.baseRevision ?? data.ref, ...(worker.workRoot ? { parent: worker.workRoot } : {}) });
  base.baseRevision = workspace.baseRevision;
  const dataDir = join(dirname(workspace.path), "data");
  const removeWorkspace = async (): Promise<void> => {
    if (!worker.keepWorkspace) await workspace.remove();
  };
  try {
    settings = { ...settings, cwd: workspace.path, dataDir, json: true };

    // The job's mirror is this worker's from here on: a frozen earlier worker can append nothing more.
    const fence = fleet ? await claimMirror(fleet.redis, fleet.keys, jobId) : undefined;
    // A takeover: what the dead worker had done is in Redis.
    const mirrored = fleet ? await readMirroredLog(fleet.redis, fleet.keys, jobId) : [];
    const previous = summarizeEntries(mirrored);
    const known = fleet ? await fleet.redis.hget(fleet.keys.job(jobId), "taskId") : null;
    const previousTaskId = mirrored.length > 0 && known !== null ? known : undefined;
    if (previousTaskId !== undefined && fleet) {
      const patch = (await fleet.redis.get(fleet.keys.patch(jobId))) ?? "";
      await applyPatch(workspace.path, patch);
      if (previous.lastStatus === "completed") {
        worker.log?.(`job ${jobId}: the task had completed before its worker died; not run again`);
        return keep({
          result: finish({ status: "completed", taskId: previousTaskId, report: previous.report, patch, turns: previous.turns, tokensIn: previous.tokensIn, tokensOut: previous.tokensOut, cost: previous.cost }),
        });
      }
      await rebuildLocalTask({ dataDir, taskId: previousTaskId, task: data.task, workspace: workspace.path, entries: mirrored });
      worker.log?.(`job ${jobId}: taking over task ${previousTaskId} after ${previous.turns} turns`);
    }

    const spending: Spending = { turns: previous.turns, tokens: previous.tokensIn + previous.tokensOut, cost: previous.cost };
    let report = previous.report;
    const turnIds = new Set<string>();
    const onEntry = (entry: TaskLogEntry): void => {
      if (entry.kind !== "ui") return;
      if (entry.message.type === "say" && entry.message.say === "completion_result") report = entry.message.text;
      if (entry.message.type === "say" && entry.message.say === "api_req_started") turnIds.add(entry.message.id);
    };
    const mirror = fleet
      ? new LogMirror({ redis: fleet.redis, keys: fleet.keys, jobId, fence: fence ?? "", resumed: previousTaskId !== undefined, patchNow: () => workspacePatchSync(workspace.path, workspace.baseRevision), onEntry })
      : undefined;
    const limits = fleet && settings.provider !== "mock" ? sharedLimitsFor(fleet, settings, worker) : undefined;

    const host = new HeadlessHost({ json: true, stdout: nullOutput(), stderr: nullOutput(), stdin: undefined, taskId: jobId, onAsk: settings.onAsk, yes: settings.yes });
    const session = await createSession({
      settings,
      host,
      headless: true,
      checkpoints: false,
      // A takeover of a scripted job continues the script where the dead worker's requests stopped.
      ...(data.options.scenario ? { scenario: { ...data.options.scenario, turns: data.options.scenario.turns.slice(previousTaskId !== undefined ? previous.turns : 0) } } : {}),
      start: previousTaskId !== undefined ? { kind: "resume", taskId: previousTaskId } : { kind: "new", task: data.task },
      wrapProvider: (provider) => limitedProvider({ provider, limits, budgets: narrowed.budgets, spending }),
      ...(data.traceparent ? { traceparent: data.traceparent } : {}),
      // The workers' spend caps (#36) add up in Redis: one day's and one month's spending for the whole queue.
      ...(fleet && hasSpendCap(settings.spendCap) ? { spendLedger: new RedisSpendLedger(fleet.redis, fleet.keys, fleet.queueName ?? "") } : {}),
      wrapLog: (log) => {
        if (!mirror)
          return {
            append: (entry) => {
              log.append(entry);
              onEntry(entry);
            },
            flush: () => log.flush(),
          };
        return mirror.wrap(log);
      },
    });
    base.taskId = session.taskId;
    if (mirror && fleet) {
      if (previousTaskId !== undefined) {
        // The resume cut the interruption's leftovers from the local log: the mirror must cut them too.
        for (const entry of await entriesAfter({ dataDir, taskId: session.taskId, knownLines: mirrored.length })) mirror.mirror(entry);
      }
      await fleet.redis.hset(fleet.keys.job(jobId), { taskId: session.taskId, worker: worker.name, attempt: String(options.attempt), startedAt: String(started) });
    }

    let stopReason: "cancelled" | "timeout" | undefined;
    const stop = (reason: "cancelled" | "timeout"): void => {
      stopReason ??= reason;
      void session.task.abortTask();
    };
    const onAbort = (): void => stop("cancelled");
    if (options.signal?.aborted) stop("cancelled");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const onLockLost = (): void => {
      mirror?.detach();
      stop("cancelled");
    };
    options.lockLost?.addEventListener("abort", onLockLost, { once: true });
    const timer = narrowed.budgets.maxDurationMs === undefined ? undefined : setTimeout(() => stop("timeout"), narrowed.budgets.maxDurationMs);

    let outcome;
    try {
      outcome = await session.run();
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      options.lockLost?.removeEventListener("abort", onLockLost);
      host.close();
      await session.close();
    }
    const patch = await workspacePatch(workspace.path, workspace.baseRevision);
    if (mirror) {
      mirror.storePatch(patch);
      await mirror.flush();
    }
    const totals = session.task.usage.totals();
    base.turns = previous.turns + turnIds.size;
    // A takeover's Task counts only its own requests: the dead worker's are added.
    base.tokensIn = previous.tokensIn + totals.tokensIn;
    base.tokensOut = previous.tokensOut + totals.tokensOut;
    base.cost = previous.cost + totals.cost;
    base.patch = patch;
    base.report = report;
    if (stopReason === "cancelled") return keep({ result: finish({ status: "cancelled", error: "cancelled by cairn queue cancel" }) });
    if (stopReason === "timeout") return keep({ result: finish({ status: "failed", error: `budget spent: ran past budgets.maxDurationMs (${narrowed.budgets.maxDurationMs} ms)` }) });
    if (outcome.status !== "completed") return keep({ result: finish({ status: "failed", error: outcome.error ?? `the task ended ${outcome.status}` }) });
    if (data.options.pushBranch !== undefined) {
      base.branch = await pushBranch({ workspace: workspace.path, branch: data.options.pushBranch, message: `cairn: ${data.task.split("\n")[0]?.slice(0, 72) ?? "task"}` });
    }
    return keep({ result: finish({ status: "completed" }) });
  } catch (error) {
    await removeWorkspace();
    throw error;
  }

  async function keep(outcome: RunJobOutcome): Promise<RunJobOutcome> {
    if (!worker.keepWorkspace) {
      await workspace.remove();
      return outcome;
    }
    return { ...outcome, workspace };
  }
}

function sharedLimitsFor(fleet: FleetConnection, settings: ResolvedSettings, worker: WorkerContext): SharedLimits {
  let key: string | undefined;
  try {
    key = requireApiKey(settings);
  } catch {
    key = undefined;
  }
  return new SharedLimits({
    redis: fleet.redis,
    keys: fleet.keys,
    keyHash: providerKeyHash(settings.provider, key),
    concurrency: worker.fleet.providerConcurrency[settings.provider],
    onWait: (reason, ms) => worker.log?.(`waiting ${Math.ceil(ms / 1000)} s for ${reason}`),
  });
}
