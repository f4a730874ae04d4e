/**
 * Hands a job's narrowed budgets, permission rules and sandbox to cairn's
 * permission layer (issue #14: `settings.budget`, `settings.permissions`,
 * `settings.sandbox`). The fleet checks that a job only narrows; the layer
 * enforces. A worker whose settings lack a field (none today) refuses a job
 * that needs it rather than run without it.
 */
import type { ResolvedSettings } from "../config/index.js";
import type { Budgets, PermissionRules } from "./fleet-settings.js";
import { JobRejectedError, type SandboxMode } from "./narrow-settings.js";
import { parseRule } from "../security/permission-rules.js";

interface SecurityFields {
  budget: { maxRequests?: number; maxTokens?: number; maxCost?: number; maxTime?: number; maxToolCalls?: number };
  permissions: unknown[];
  sandbox: SandboxMode;
}

const minimum = (left: number | undefined, right: number | undefined): number | undefined => (left === undefined ? right : right === undefined ? left : Math.min(left, right));

const strictness: Record<SandboxMode, number> = { off: 0, "workspace-write": 1, "read-only": 2 };

export async function applySecurityNarrowing(options: { settings: ResolvedSettings; budgets: Budgets; jobPermissions: PermissionRules | undefined; sandbox: SandboxMode | undefined }): Promise<ResolvedSettings> {
  // Seen only through the fields of that layer, so this compiles whether or not the settings declare them.
  const result: ResolvedSettings = { ...options.settings };
  const settings = result as unknown as Partial<SecurityFields>;
  if (settings.budget !== undefined) {
    const budget = { ...settings.budget };
    const { maxTurns, maxTokens, maxCostUsd, maxDurationMs } = options.budgets;
    const requests = minimum(budget.maxRequests, maxTurns);
    const tokens = minimum(budget.maxTokens, maxTokens);
    const cost = minimum(budget.maxCost, maxCostUsd);
    const time = minimum(budget.maxTime, maxDurationMs === undefined ? undefined : maxDurationMs / 1000);
    if (requests !== undefined) budget.maxRequests = requests;
    if (tokens !== undefined) budget.maxTokens = tokens;
    if (cost !== undefined) budget.maxCost = cost;
    if (time !== undefined) budget.maxTime = time;
    settings.budget = budget;
  }
  if (options.sandbox !== undefined) {
    if (settings.sandbox === undefined) throw new JobRejectedError(`the job asks for sandbox "${options.sandbox}", which this worker cannot provide`);
    if (strictness[options.sandbox] > strictness[settings.sandbox]) settings.sandbox = options.sandbox;
  }
  const rules = options.jobPermissions;
  const count = (rules?.allow?.length ?? 0) + (rules?.ask?.length ?? 0) + (rules?.deny?.length ?? 0);
  if (rules !== undefined && count > 0) {
    if (settings.permissions === undefined) {
      throw new JobRejectedError("the job carries permission rules, which this worker cannot enforce");
    }
    const source = "job (cairn queue add)";
    try {
      settings.permissions = [
        ...settings.permissions,
        ...(rules.deny ?? []).map((text) => parseRule(text, "deny", source)),
        ...(rules.ask ?? []).map((text) => parseRule(text, "ask", source)),
        ...(rules.allow ?? []).map((text) => parseRule(text, "allow", source)),
      ];
    } catch (error) {
      throw new JobRejectedError(`the job's permission rules: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return result;
}
