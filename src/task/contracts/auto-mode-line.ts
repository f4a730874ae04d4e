import type { ApprovalVerdictName, ToolCardMeta } from "./tool-meta.js";

/**
 * Auto mode's line on a tool card (issue 30), the same on every surface: what the
 * judge decided and why, or why it could not decide and what happened instead
 * (`approval` says whether the call was then asked or refused).
 */
export function autoModeLine(autoMode: NonNullable<ToolCardMeta["autoMode"]>, approval: ApprovalVerdictName | undefined): string {
  if (autoMode.failed === true) return `${autoMode.reason}; ${approval === "refuse" ? "refused, since nobody can answer here" : "asking you instead"}`;
  const verb = autoMode.decision === "allow" ? "allowed it" : autoMode.decision === "deny" ? "refused it" : "asks you";
  return `auto mode ${verb}: ${autoMode.reason}`;
}
