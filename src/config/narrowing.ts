/**
 * Settings a project may only make stricter, trusted or not: its budget can
 * lower the user's limits (or set one the user has none of) but never raise
 * them, and its model prices never make the user's budget arithmetic
 * cheaper: before trust they are ignored (src/config/project-gate.ts), after
 * it they count only where they are not below the user's or the catalogue's.
 * A flag is the user's own choice for one run and wins over every file.
 */
import type { Layer } from "./layers.js";
import type { SettingsFile } from "./settings-files.js";
import type { ModelOverride, SettingSource } from "./types.js";
import { modelInfo } from "../llm/models.js";
import type { BudgetLimits, SpendCapLimits } from "../security/settings-schema.js";

const budgetKeys = ["maxRequests", "maxTokens", "maxCost", "maxTime", "maxToolCalls"] as const;
const spendCapKeys = ["daily", "monthly"] as const;
const priceFields = ["inputPrice", "outputPrice", "cacheReadPrice", "cacheWritePrice"] as const;

interface Bookkeeping {
  sources: Record<string, SettingSource>;
  sourceDetails: Record<string, string>;
  warnings: string[];
}

/** The lowest limit any file sets, unless a flag sets one; a project's higher limit is reported as ignored. */
export function resolveBudget(options: Bookkeeping & { flags: Layer; files: readonly Layer[] }): BudgetLimits {
  return resolveLowest("budget", budgetKeys, options);
}

/** The spend caps across tasks (#36), in US dollars: as budgets, a project may only lower them. */
export function resolveSpendCap(options: Bookkeeping & { flags: Layer; files: readonly Layer[] }): SpendCapLimits {
  return resolveLowest("spendCap", spendCapKeys, options);
}

function resolveLowest<K extends string>(prefix: string, keys: readonly K[], options: Bookkeeping & { flags: Layer; files: readonly Layer[] }): Partial<Record<K, number>> {
  const limits: Partial<Record<K, number>> = {};
  for (const key of keys) {
    const name = `${prefix}.${key}`;
    const flag = options.flags.values.get(name);
    if (typeof flag === "number") {
      limits[key] = flag;
      options.sources[name] = "flag";
      options.sourceDetails[name] = options.flags.detail(name);
      continue;
    }
    const set = options.files.filter((layer) => typeof layer.values.get(name) === "number");
    const lowest = set.reduce<Layer | undefined>((best, layer) => (best === undefined || (layer.values.get(name) as number) < (best.values.get(name) as number) ? layer : best), undefined);
    if (lowest === undefined) continue;
    const limit = lowest.values.get(name) as number;
    limits[key] = limit;
    options.sources[name] = lowest.source;
    options.sourceDetails[name] = lowest.detail(name);
    for (const layer of set) {
      if (layer.source === "project" && (layer.values.get(name) as number) > limit) {
        options.warnings.push(`${layer.detail(name)}: ${name} ${String(layer.values.get(name))} ignored: a project may only lower your limit (${String(limit)}, ${lowest.detail(name)}).`);
      }
    }
  }
  return limits;
}

/**
 * The catalogue's highest price for the model (cache prices default to the input price, as costs
 * are counted): a model served at two prices (a regional endpoint of Bedrock or Vertex AI costs
 * more, regional-prices.ts) is floored at the higher, wherever this task's endpoint is.
 */
function cataloguePrice(id: string, field: (typeof priceFields)[number]): number {
  const info = modelInfo(id, { endpoint: "regional" });
  return info[field] ?? info.inputPrice;
}

/**
 * Model overrides by id, field by field: the user's files (low to high), then
 * a trusted project's, whose prices count only where they do not lower the price.
 */
export function resolveModels(options: Bookkeeping & { files: readonly SettingsFile[] }): Record<string, ModelOverride> {
  const lowToHigh = [...options.files].reverse();
  const own = lowToHigh.filter((file) => file.scope !== "project");
  const project = lowToHigh.filter((file) => file.scope === "project");
  const ids = new Set(lowToHigh.flatMap((file) => Object.keys(file.config.models ?? {})));
  const models: Record<string, ModelOverride> = {};
  for (const id of ids) {
    const merged: ModelOverride = {};
    let from: SettingsFile | undefined;
    for (const file of own) {
      const override = file.config.models?.[id];
      if (override === undefined) continue;
      Object.assign(merged, withoutUndefined(override));
      from = file;
    }
    for (const file of project) {
      const override = file.config.models?.[id];
      if (override === undefined) continue;
      const accepted: ModelOverride = { ...withoutUndefined(override) };
      for (const field of priceFields) {
        const price = accepted[field];
        if (price === undefined) continue;
        const floor = merged[field] ?? cataloguePrice(id, field);
        if (price >= floor) continue;
        delete accepted[field];
        options.warnings.push(`${file.path}: models.${id}.${field} ${String(price)} ignored: a project may not lower a price your budget counts (${String(floor)}).`);
      }
      Object.assign(merged, accepted);
      from = file;
    }
    if (from === undefined || Object.keys(merged).length === 0) continue;
    models[id] = merged;
    options.sources[`models.${id}`] = from.scope === "managed" ? "managed" : from.scope;
    options.sourceDetails[`models.${id}`] = from.path;
  }
  return models;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
