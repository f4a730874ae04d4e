/**
 * The settings the security layer reads from `config.json` (user and project):
 * permission rules in Claude Code's format, the sandbox, outside reads, the
 * environment names allowed through to child processes, and budgets.
 */
import { z } from "zod";
import { parseRule, RuleSyntaxError, type RuleDecision } from "./permission-rules.js";

const ruleList = (decision: RuleDecision) =>
  z.array(
    z.string().superRefine((text, context) => {
      try {
        parseRule(text, decision, "check");
      } catch (error) {
        if (error instanceof RuleSyntaxError) context.addIssue({ code: "custom", message: error.message });
        else throw error;
      }
    }),
  );

export const budgetSchema = z.strictObject({
  maxRequests: z.number().int().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
  /** US dollars, from the model catalogue's prices. */
  maxCost: z.number().positive().optional(),
  /** Seconds. */
  maxTime: z.number().positive().optional(),
  maxToolCalls: z.number().int().positive().optional(),
});

export const securitySettingsSchema = {
  // Claude Code's block also holds keys cairn does not use (defaultMode, additionalDirectories): accepted, ignored.
  permissions: z.looseObject({ allow: ruleList("allow").optional(), ask: ruleList("ask").optional(), deny: ruleList("deny").optional() }).optional(),
  sandbox: z.enum(["workspace-write", "read-only", "off"]).optional(),
  sandboxNetwork: z.boolean().optional(),
  /**
   * The user's one-time answer about the sandbox (`cairn sandbox enable|disable`, user config only):
   * true makes `workspace-write` the default wherever bubblewrap works; false keeps it off without the notice.
   */
  sandboxOptIn: z.boolean().optional(),
  allowOutsideReads: z.boolean().optional(),
  /** Environment variables passed to commands, hooks and MCP servers although their names look secret. */
  allowEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).optional(),
  budget: budgetSchema.optional(),
};

export type BudgetLimits = z.infer<typeof budgetSchema>;
