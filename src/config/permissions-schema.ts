/**
 * The `permissions` block as both cairn's and Claude Code's settings files
 * hold it: rules in Claude Code's format (a malformed rule is an error naming
 * it), the default permission mode, and the keys cairn reports as not
 * supported. Claude Code's other keys in the block are its own: accepted, unused.
 */
import { z } from "zod";
import { parseRule, RuleSyntaxError, type RuleDecision } from "../security/permission-rules.js";

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

export const permissionsSchema = z.looseObject({
  allow: ruleList("allow").optional(),
  ask: ruleList("ask").optional(),
  deny: ruleList("deny").optional(),
  /** Claude Code's modes: `default`, `acceptEdits`, `plan`, `bypassPermissions` (others are reported as not supported). */
  defaultMode: z.string().min(1).optional(),
  additionalDirectories: z.array(z.string()).optional(),
  /** `"disable"` turns bypass mode (`--yes`) off, from whichever file says so. */
  disableBypassPermissionsMode: z.string().optional(),
});

export type PermissionsSetting = z.infer<typeof permissionsSchema>;

/** Names a variable may have in `env`. */
export const environmentSchema = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "not a variable name"), z.string());
