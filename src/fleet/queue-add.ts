/** `cairn queue add`: one job from the command line, or many from `--file tasks.jsonl`. */
import { readFile } from "node:fs/promises";
import type { Queue } from "bullmq";
import { loadScenario } from "../llm/scripted/scenario.js";
import { describeSchemaError, jobDataSchema, jobLineSchema, jobOptionsSchema, type JobData, type JobOptions } from "./job-spec.js";
import { normalizeRepository, resolveRevision } from "./workspace.js";

export class JobInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JobInputError";
  }
}

export interface QueueAddFlags {
  repo?: string;
  ref?: string;
  file?: string;
  name?: string;
  provider?: string;
  baseUrl?: string;
  model?: string;
  profile?: string;
  toolProtocol?: string;
  maxMistakes?: string;
  scenario?: string;
  maxTurns?: string;
  maxTokens?: string;
  maxCost?: string;
  timeout?: string;
  sandbox?: boolean | string;
  allow?: string[];
  ask?: string[];
  deny?: string[];
  noApprove?: boolean;
  pushBranch?: string;
  apiKey?: string;
}

function numberFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new JobInputError(`${flag} ${value}: give a positive number`);
  return parsed;
}

/** The run options a job carries, from the command line (validated; keys refused). */
export async function optionsFromFlags(flags: QueueAddFlags): Promise<JobOptions> {
  if (flags.apiKey !== undefined) {
    throw new JobInputError("--api-key cannot go in a job: jobs are stored in Redis and keys never are. Each worker reads its own key from its environment or settings.");
  }
  const budgets = {
    ...(flags.maxTurns ? { maxTurns: numberFlag(flags.maxTurns, "--max-turns") } : {}),
    ...(flags.maxTokens ? { maxTokens: numberFlag(flags.maxTokens, "--max-tokens") } : {}),
    ...(flags.maxCost ? { maxCostUsd: numberFlag(flags.maxCost, "--max-cost") } : {}),
    ...(flags.timeout ? { maxDurationMs: Math.round((numberFlag(flags.timeout, "--timeout") ?? 0) * 1000) } : {}),
  };
  const permissions =
    flags.allow?.length || flags.ask?.length || flags.deny?.length
      ? { ...(flags.allow?.length ? { allow: flags.allow } : {}), ...(flags.ask?.length ? { ask: flags.ask } : {}), ...(flags.deny?.length ? { deny: flags.deny } : {}) }
      : undefined;
  const raw = {
    ...(flags.provider ? { provider: flags.provider } : {}),
    ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.profile ? { profile: flags.profile } : {}),
    ...(flags.toolProtocol ? { toolProtocol: flags.toolProtocol } : {}),
    ...(flags.maxMistakes ? { maxMistakes: numberFlag(flags.maxMistakes, "--max-mistakes") } : {}),
    ...(Object.keys(budgets).length > 0 ? { budgets } : {}),
    ...(permissions ? { permissions } : {}),
    ...(flags.sandbox !== undefined ? { sandbox: flags.sandbox } : {}),
    ...(flags.noApprove ? { yes: false } : {}),
    ...(flags.pushBranch ? { pushBranch: flags.pushBranch } : {}),
    ...(flags.scenario ? { scenario: await loadScenario(flags.scenario) } : {}),
  };
  const parsed = jobOptionsSchema.safeParse(raw);
  if (!parsed.success) throw new JobInputError(describeSchemaError(parsed.error, "the job's options are not valid"));
  return parsed.data;
}

/** A job ready to add: the repository made absolute and the ref pinned to a commit. */
export async function prepareJob(input: { repo: string; ref?: string | undefined; task: string; options: JobOptions; name?: string | undefined }, cwd: string): Promise<JobData> {
  const repo = normalizeRepository(input.repo, cwd);
  const ref = input.ref ?? "HEAD";
  let baseRevision: string;
  try {
    baseRevision = await resolveRevision(repo, ref);
  } catch (error) {
    throw new JobInputError(`${input.repo} at ${ref}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const traceparent = process.env["TRACEPARENT"];
  const data = { repo, ref, baseRevision, task: input.task, options: input.options, ...(input.name ? { name: input.name } : {}), ...(traceparent ? { traceparent } : {}) };
  const parsed = jobDataSchema.safeParse(data);
  if (!parsed.success) throw new JobInputError(describeSchemaError(parsed.error, "the job is not valid"));
  return parsed.data;
}

/** Reads `tasks.jsonl`: every line is checked before any job is added, so a bad file adds nothing. */
export async function jobsFromFile(file: string, defaults: JobOptions, cwd: string): Promise<JobData[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new JobInputError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const jobs: JobData[] = [];
  const lines = text.split("\n");
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      throw new JobInputError(`${file}:${index + 1}: not JSON (${(error as Error).message}); nothing was added`);
    }
    if (typeof raw === "object" && raw !== null && "apiKey" in raw) {
      throw new JobInputError(`${file}:${index + 1}: "apiKey" cannot go in a job (jobs are stored in Redis); nothing was added`);
    }
    const parsed = jobLineSchema.safeParse(raw);
    if (!parsed.success) throw new JobInputError(`${describeSchemaError(parsed.error, `${file}:${index + 1} is not a valid job`)}\nnothing was added`);
    const { repo, ref, task, name, ...options } = parsed.data;
    jobs.push(await prepareJob({ repo, ref, task, name, options: { ...defaults, ...options } }, cwd));
  }
  if (jobs.length === 0) throw new JobInputError(`${file} has no jobs`);
  return jobs;
}

export async function addJobs(queue: Queue, jobs: JobData[]): Promise<string[]> {
  const added = await queue.addBulk(jobs.map((data) => ({ name: "task", data, opts: { attempts: 1, removeOnComplete: false, removeOnFail: false } })));
  return added.map((job) => job.id ?? "");
}
