/**
 * The worker's fleet settings: `fleet.json` next to the user's `config.json`.
 * They say what a job may choose (providers, profiles, base URLs), the
 * fleet-wide limits, and how long a dead worker's job waits for a takeover.
 * A project's files never contribute: a job's repository is not trusted.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { FleetConfigError } from "./redis-connection.js";

const positiveInteger = z.number().int().positive();

export const budgetsSchema = z.strictObject({
  /** Model requests. */
  maxTurns: positiveInteger.optional(),
  /** Input plus output tokens. */
  maxTokens: positiveInteger.optional(),
  maxCostUsd: z.number().positive().optional(),
  /** Wall time of one attempt of the job. */
  maxDurationMs: positiveInteger.optional(),
});
export type Budgets = z.infer<typeof budgetsSchema>;

/** Permission rules as the security layer writes them; the fleet only checks that a job narrows. */
export const permissionRulesSchema = z.strictObject({
  allow: z.array(z.string().min(1)).optional(),
  ask: z.array(z.string().min(1)).optional(),
  deny: z.array(z.string().min(1)).optional(),
});
export type PermissionRules = z.infer<typeof permissionRulesSchema>;

/** The sandbox a job runs in: `true` is `workspace-write`, `false` is `off`; `read-only` is the strictest. */
export const sandboxSchema = z.union([z.boolean(), z.enum(["workspace-write", "read-only", "off"])]);
export type SandboxChoice = z.infer<typeof sandboxSchema>;

export const fleetSettingsSchema = z.strictObject({
  $schema: z.string().optional(),
  redisUrl: z.string().min(1).optional(),
  queue: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .optional(),
  /** What a job may name besides the worker's own provider, profile and base URL. */
  allow: z
    .strictObject({
      providers: z.array(z.enum(["anthropic", "openai", "openai-responses", "gemini", "mock"])).optional(),
      profiles: z.array(z.string().min(1)).optional(),
      /** Exact URLs, or patterns with `*` (e.g. `http://127.0.0.1:*`). */
      baseUrls: z.array(z.string().min(1)).optional(),
    })
    .optional(),
  /** Requests in flight at once across the whole fleet, per provider name (e.g. `{ "anthropic": 8 }`). */
  providerConcurrency: z.record(z.string(), positiveInteger).optional(),
  /** The worker's own budgets: a job may only lower them. */
  budgets: budgetsSchema.optional(),
  /** The worker's own permission rules: a job may add ask/deny rules, and allow rules only from this list. */
  permissions: permissionRulesSchema.optional(),
  /** The worker's sandbox: a job can make it stricter, never looser. */
  sandbox: sandboxSchema.optional(),
  /** BullMQ lock: a worker silent this long is presumed dead and its job handed over. */
  lockDurationMs: positiveInteger.optional(),
  stalledIntervalMs: positiveInteger.optional(),
  /** Takeovers of one job before it is failed. */
  maxStalledCount: z.number().int().nonnegative().optional(),
  /** How long logs and patches of finished jobs stay in Redis. */
  retentionSeconds: positiveInteger.optional(),
});
export type FleetSettingsFile = z.infer<typeof fleetSettingsSchema>;

export interface FleetSettings {
  path: string;
  redisUrl: string | undefined;
  queue: string;
  allow: { providers: string[]; profiles: string[]; baseUrls: string[] };
  providerConcurrency: Record<string, number>;
  budgets: Budgets;
  permissions: PermissionRules | undefined;
  sandbox: SandboxChoice | undefined;
  lockDurationMs: number;
  stalledIntervalMs: number;
  maxStalledCount: number;
  retentionSeconds: number;
}

export function fleetSettingsPath(userConfigDir: string): string {
  return join(userConfigDir, "fleet.json");
}

export async function readFleetSettings(userConfigDir: string): Promise<FleetSettings> {
  const path = fleetSettingsPath(userConfigDir);
  let file: FleetSettingsFile = {};
  let text: string | undefined;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new FleetConfigError(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (text !== undefined) {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new FleetConfigError(`${path} is not valid JSON: ${(error as Error).message}`);
    }
    const parsed = fleetSettingsSchema.safeParse(raw);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `  - ${issue.path.map(String).join(".") || "(top level)"}: ${issue.message}`);
      throw new FleetConfigError(`${path} is not valid fleet settings:\n${problems.join("\n")}\nSee docs/fleet.md.`);
    }
    file = parsed.data;
  }
  return {
    path,
    redisUrl: file.redisUrl,
    queue: file.queue ?? "cairn",
    allow: { providers: file.allow?.providers ?? [], profiles: file.allow?.profiles ?? [], baseUrls: file.allow?.baseUrls ?? [] },
    providerConcurrency: file.providerConcurrency ?? {},
    budgets: file.budgets ?? {},
    permissions: file.permissions,
    sandbox: file.sandbox,
    lockDurationMs: file.lockDurationMs ?? 30_000,
    stalledIntervalMs: file.stalledIntervalMs ?? 15_000,
    maxStalledCount: file.maxStalledCount ?? 3,
    retentionSeconds: file.retentionSeconds ?? 7 * 24 * 3600,
  };
}
