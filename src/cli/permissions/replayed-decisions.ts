/**
 * What a rule set decides for a past action: the approval policy's own
 * verdict (the real bash parse, protected paths, the workspace's ignore
 * files), with the rules given, the settings in force now, no --yes.
 */
import { existsSync } from "node:fs";
import type { ResolvedSettings } from "../../config/index.js";
import { PermissionRules, type PermissionRule } from "../../security/permission-rules.js";
import { ApprovalPolicy } from "../../tools/approval.js";
import { workspacePathOracle } from "../../tools/path-facts.js";
import { WorkspaceGuard } from "../../tools/workspace-guard.js";
import type { PastAction } from "./past-actions.js";

export type ReplayedDecision = "allow" | "ask" | "deny";

export class RuleSetJudge {
  private readonly policies = new Map<string, ApprovalPolicy>();

  constructor(
    private readonly settings: ResolvedSettings,
    private readonly rules: readonly PermissionRule[],
  ) {}

  async decide(action: PastAction): Promise<ReplayedDecision> {
    const found = await this.policyFor(action.workspace).verdict(action.request);
    return found.verdict === "auto" ? "allow" : found.verdict === "refuse" ? "deny" : "ask";
  }

  private policyFor(workspace: string): ApprovalPolicy {
    const known = this.policies.get(workspace);
    if (known !== undefined) return known;
    // A workspace that is gone is judged from the current folder (its paths stay relative to it).
    const root = existsSync(workspace) ? workspace : this.settings.cwd;
    const guard = new WorkspaceGuard(root);
    const policy = new ApprovalPolicy({
      settings: this.settings.autoApprove,
      yes: false,
      allowOutsideWrites: this.settings.allowOutsideWrites,
      allowOutsideReads: this.settings.allowOutsideReads,
      rules: new PermissionRules([...this.rules], root),
      sandbox: this.settings.sandbox,
      sandboxUnavailable: this.settings.sandboxUnavailable,
      paths: workspacePathOracle(guard, this.settings.userConfigDir),
    });
    this.policies.set(workspace, policy);
    return policy;
  }
}
