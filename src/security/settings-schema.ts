/**
 * The settings the security layer reads from `config.json` (user and project):
 * the sandbox, outside reads, the environment names allowed through to child
 * processes, and budgets (the permission rules: src/config/permissions-schema.ts).
 */
import { z } from "zod";

export const budgetSchema = z.strictObject({
  maxRequests: z.number().int().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
  /** US dollars, from the model catalogue's prices. */
  maxCost: z.number().positive().optional(),
  /** Seconds. */
  maxTime: z.number().positive().optional(),
  maxToolCalls: z.number().int().positive().optional(),
});

/** Spend caps across tasks (#36), US dollars per calendar day and month (UTC), kept in the data folder or the fleet's Redis. */
export const spendCapSchema = z.strictObject({
  daily: z.number().positive().optional(),
  monthly: z.number().positive().optional(),
});

export const securitySettingsSchema = {
  sandbox: z.enum(["workspace-write", "read-only", "off"]).optional(),
  sandboxNetwork: z.boolean().optional(),
  /** Written by versions before the sandbox was on by default: false still means off (src/config/sandbox-default.ts). */
  sandboxOptIn: z.boolean().optional(),
  allowOutsideReads: z.boolean().optional(),
  /** Environment variables passed to commands, hooks and MCP servers although their names look secret. */
  allowEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).optional(),
  budget: budgetSchema.optional(),
  spendCap: spendCapSchema.optional(),
};

export type BudgetLimits = z.infer<typeof budgetSchema>;

export type SpendCapLimits = z.infer<typeof spendCapSchema>;
