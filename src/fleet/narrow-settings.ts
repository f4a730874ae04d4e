/**
 * A job narrows a worker's settings and never widens them. It may name a
 * provider, profile or base URL only among those the worker's own settings
 * allow, so that nobody who can write to Redis can send a worker's key to an
 * address of their choosing. Anything else that would widen is refused, with
 * the reason, rather than silently dropped.
 */
import type { CliFlags, ResolvedSettings } from "../config/index.js";
import { autoApproveKeys } from "../config/types.js";
import type { Budgets, FleetSettings, PermissionRules, SandboxChoice } from "./fleet-settings.js";
import type { JobOptions } from "./job-spec.js";

export class JobRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JobRejectedError";
  }
}

/**
 * `*` matches any run of characters; everything else literally. The URL is
 * matched as parsed (scheme, host, port, path), and one with a user name or
 * password never matches: `http://127.0.0.1:1@attacker.example` goes to the attacker.
 */
export function matchesUrlPattern(url: string, pattern: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username !== "" || parsed.password !== "" || parsed.search !== "" || parsed.hash !== "") return false;
  const normalized = `${parsed.protocol}//${parsed.host}${parsed.pathname}`.replace(/\/+$/, "");
  const expression = new RegExp(
    `^${pattern
      .replace(/\/+$/, "")
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, "\\$&"))
      .join("[^@]*")}$`,
  );
  return expression.test(normalized);
}

/** The flags that select the job's provider, checked against what the worker allows. */
export function providerFlagsFor(options: { job: JobOptions; worker: ResolvedSettings; fleet: FleetSettings; workerFlags: CliFlags }): CliFlags {
  const { job, worker, fleet } = options;
  // The scripted model sends nothing anywhere and needs no key: always allowed.
  if (job.provider !== undefined && job.provider !== "mock" && job.provider !== worker.provider && !fleet.allow.providers.includes(job.provider)) {
    throw new JobRejectedError(`the job asks for provider "${job.provider}", which this worker does not allow (fleet.json allow.providers)`);
  }
  if (job.profile !== undefined && job.profile !== worker.profile && !fleet.allow.profiles.includes(job.profile)) {
    throw new JobRejectedError(`the job asks for profile "${job.profile}", which this worker does not allow (fleet.json allow.profiles)`);
  }
  if (job.baseUrl !== undefined && !baseUrlAllowed(job.baseUrl, worker, fleet)) {
    throw new JobRejectedError(`the job asks for base URL ${job.baseUrl}, which this worker does not allow (fleet.json allow.baseUrls)`);
  }
  const flags: CliFlags = { ...options.workerFlags };
  // A job naming its own provider or profile starts from that choice, not from the worker's flags for another provider.
  if (job.provider !== undefined || job.profile !== undefined) {
    delete flags.baseUrl;
    delete flags.model;
    delete flags.profile;
    delete flags.provider;
  }
  if (job.provider !== undefined) flags.provider = job.provider;
  if (job.profile !== undefined) flags.profile = job.profile;
  if (job.baseUrl !== undefined) flags.baseUrl = job.baseUrl;
  if (job.model !== undefined) flags.model = job.model;
  if (job.toolProtocol !== undefined) flags.toolProtocol = job.toolProtocol;
  // Keys come from the worker alone: never from a flag a job could influence.
  delete flags.apiKey;
  return flags;
}

function baseUrlAllowed(url: string, worker: ResolvedSettings, fleet: FleetSettings): boolean {
  if (worker.baseUrl !== undefined && url.replace(/\/+$/, "") === worker.baseUrl.replace(/\/+$/, "")) return true;
  return fleet.allow.baseUrls.some((pattern) => matchesUrlPattern(url, pattern));
}

export interface NarrowedRun {
  settings: ResolvedSettings;
  budgets: Budgets;
  permissions: PermissionRules | undefined;
  sandbox: SandboxMode | undefined;
}

/**
 * Applies the job's options to settings resolved for it: approvals, mistakes
 * and budgets can only go down; permission rules only tighten; a required
 * sandbox stays on.
 */
export function narrowSettings(options: { resolved: ResolvedSettings; worker: ResolvedSettings; job: JobOptions; fleet: FleetSettings }): NarrowedRun {
  const { resolved, worker, job, fleet } = options;
  const settings: ResolvedSettings = { ...resolved, autoApprove: { ...worker.autoApprove } };
  settings.yes = worker.yes && job.yes !== false;
  settings.allowOutsideWrites = worker.allowOutsideWrites;
  for (const [key, value] of Object.entries(job.autoApprove ?? {})) {
    if (!(autoApproveKeys as readonly string[]).includes(key)) throw new JobRejectedError(`the job's autoApprove.${key} is not a setting cairn knows`);
    const name = key as (typeof autoApproveKeys)[number];
    if (value && !worker.autoApprove[name]) throw new JobRejectedError(`the job asks for autoApprove.${key}, which this worker does not grant`);
    if (!value) settings.autoApprove[name] = false;
  }
  settings.maxMistakes = Math.min(worker.maxMistakes, job.maxMistakes ?? worker.maxMistakes);
  if (job.parallelTools !== undefined) settings.parallelTools = job.parallelTools;
  if (job.plan !== undefined) settings.plan = job.plan;
  return {
    settings,
    budgets: narrowBudgets(fleet.budgets, job.budgets ?? {}),
    permissions: narrowPermissions(fleet.permissions, job.permissions),
    sandbox: narrowSandbox(fleet.sandbox, job.sandbox),
  };
}

export function narrowBudgets(worker: Budgets, job: Budgets): Budgets {
  const result: Budgets = { ...worker };
  for (const key of ["maxTurns", "maxTokens", "maxCostUsd", "maxDurationMs"] as const) {
    const asked = job[key];
    if (asked === undefined) continue;
    const limit = worker[key];
    if (limit !== undefined && asked > limit) {
      throw new JobRejectedError(`the job's budget ${key} = ${asked} is above this worker's ${limit}; a job can only lower budgets`);
    }
    result[key] = asked;
  }
  return result;
}

/**
 * The rules a job runs under: the worker's `ask` and `deny` rules for every
 * job, plus the job's own; `allow` rules only those the job names, and only
 * among the worker's (the worker's list is what a job may allow, not a default).
 */
export function narrowPermissions(worker: PermissionRules | undefined, job: PermissionRules | undefined): PermissionRules | undefined {
  if (job === undefined) return worker === undefined ? undefined : { allow: [], ask: worker.ask ?? [], deny: worker.deny ?? [] };
  const allowed = new Set(worker?.allow ?? []);
  const widening = (job.allow ?? []).filter((rule) => !allowed.has(rule));
  if (widening.length > 0) {
    throw new JobRejectedError(`the job's permission rules allow ${widening.map((rule) => `"${rule}"`).join(", ")}, which this worker does not allow`);
  }
  return {
    allow: job.allow ?? [],
    ask: [...(worker?.ask ?? []), ...(job.ask ?? [])],
    deny: [...(worker?.deny ?? []), ...(job.deny ?? [])],
  };
}

export type SandboxMode = "workspace-write" | "read-only" | "off";

function sandboxMode(choice: SandboxChoice): SandboxMode {
  if (choice === true) return "workspace-write";
  if (choice === false) return "off";
  return choice;
}

const strictness: Record<SandboxMode, number> = { off: 0, "workspace-write": 1, "read-only": 2 };

/** The stricter of the two; a job asking for a looser sandbox than the worker's is refused. */
export function narrowSandbox(worker: SandboxChoice | undefined, job: SandboxChoice | undefined): SandboxMode | undefined {
  const workerMode = worker === undefined ? undefined : sandboxMode(worker);
  if (job === undefined) return workerMode;
  const jobMode = sandboxMode(job);
  if (workerMode !== undefined && strictness[jobMode] < strictness[workerMode]) {
    throw new JobRejectedError(`the job asks for sandbox "${jobMode}", looser than this worker's "${workerMode}"`);
  }
  return jobMode;
}
