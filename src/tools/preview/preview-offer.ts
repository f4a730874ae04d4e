/**
 * Whether a command's ask offers "preview" (#30): in the workspace-write
 * sandbox, for a command that would run in it (not one that would run outside).
 */
import type { SecurityContext } from "../../security/security-decision.js";
import type { ApprovalRequest, VerdictDetail } from "../approval.js";

export function previewOffer(request: ApprovalRequest, detail: VerdictDetail, security: Pick<SecurityContext, "sandbox" | "sandboxUnavailable">): { previewable?: true } {
  if (request.kind !== "command" || security.sandbox !== "workspace-write" || security.sandboxUnavailable === true) return {};
  return detail.escalate === undefined && detail.outside === undefined ? { previewable: true } : {};
}
