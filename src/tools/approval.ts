/**
 * The one approval policy every tool call goes through: what runs by itself,
 * what asks the user, and what is refused outright.
 */
import type { AskType, SayType } from "../task/messages.js";
import type { ToolCallContext, ToolOutcome } from "../task/tool-executor.js";
import { denied, refusedOutsideWrite } from "./responses.js";

/** `true` means "auto-approve": run without asking. */
export interface ApprovalSettings {
  readInside: boolean;
  readOutside: boolean;
  editInside: boolean;
  editOutside: boolean;
  /** Commands the model marked `requires_approval: false`. */
  commandsSafe: boolean;
  /** Every command, including those the model marked as needing approval. */
  commandsAll: boolean;
  /** MCP tools and resources (a server's own `autoApprove` list also counts). */
  mcp: boolean;
  webFetch: boolean;
}

export const defaultApprovalSettings: ApprovalSettings = {
  readInside: true,
  readOutside: false,
  editInside: false,
  editOutside: false,
  commandsSafe: false,
  commandsAll: false,
  mcp: false,
  webFetch: false,
};

export type ApprovalRequest =
  | { kind: "read"; inside: boolean; path: string }
  | { kind: "edit"; inside: boolean; path: string }
  | { kind: "command"; requiresApproval: boolean }
  | { kind: "mcp"; serverAutoApprove: boolean }
  | { kind: "web" };

export type ApprovalVerdict = "auto" | "ask" | "refuse";

export type ApprovalDecision = { approved: true; feedback?: string } | { approved: false; outcome: ToolOutcome };

export interface Presentation {
  /** Key of the partial `say` shown while the call streamed. */
  key: string;
  text: string;
  meta: Record<string, unknown>;
}

export class ApprovalPolicy {
  constructor(private readonly options: { settings: ApprovalSettings; yes: boolean; allowOutsideWrites: boolean }) {}

  verdict(request: ApprovalRequest): ApprovalVerdict {
    const { settings, yes, allowOutsideWrites } = this.options;
    if (request.kind === "edit" && !request.inside && yes && !allowOutsideWrites) return "refuse";
    if (yes) return "auto";
    switch (request.kind) {
      case "read":
        return (request.inside ? settings.readInside : settings.readOutside) ? "auto" : "ask";
      case "edit":
        return (request.inside ? settings.editInside : settings.editOutside) ? "auto" : "ask";
      case "command":
        // SPEC: requires_approval can only add caution; `false` alone never skips the ask.
        if (settings.commandsAll) return "auto";
        return settings.commandsSafe && !request.requiresApproval ? "auto" : "ask";
      case "mcp":
        return settings.mcp || request.serverAutoApprove ? "auto" : "ask";
      case "web":
        return settings.webFetch ? "auto" : "ask";
    }
  }

  /** Shows what will happen and, when the policy says so, waits for the user. */
  async approve(options: {
    request: ApprovalRequest;
    context: ToolCallContext;
    presentation: Presentation;
  }): Promise<ApprovalDecision> {
    const { request, context, presentation } = options;
    const verdict = withHookAnswer({ verdict: this.verdict(request), request, answer: context.hookApproval, yes: this.options.yes });
    const sayType: SayType = request.kind === "command" ? "command" : "tool";
    // A PermissionRequest hook may answer this ask only where a PreToolUse allow could skip it.
    const meta = { ...presentation.meta, approval: verdict, ...(verdict === "ask" ? { hookMayApprove: hooksMayApprove(request) } : {}) };
    context.say(sayType, presentation.text, { partial: false, key: presentation.key, meta });
    if (verdict === "refuse") {
      const path = request.kind === "edit" ? request.path : "this path";
      return { approved: false, outcome: refusedOutsideWrite(path) };
    }
    if (verdict === "auto") return { approved: true };
    const askType: AskType = request.kind === "command" ? "command" : request.kind === "mcp" ? "use_mcp_server" : "tool";
    const answer = await context.ask(askType, presentation.text, { meta });
    if (answer.response === "yes") return answer.text === undefined ? { approved: true } : { approved: true, feedback: answer.text };
    return { approved: false, outcome: denied(answer.text) };
  }
}

/**
 * Whether a hook's `allow` may stand in for the user's yes. Never for what the
 * security rules require the user to see: reads and edits outside the workspace.
 */
export function hooksMayApprove(request: ApprovalRequest): boolean {
  if (request.kind === "read" || request.kind === "edit") return request.inside;
  return true;
}

/** A PreToolUse hook's answer: `allow` lifts an ask hooks may lift; `ask` turns an automatic approval into an ask (not under --yes). */
function withHookAnswer(options: { verdict: ApprovalVerdict; request: ApprovalRequest; answer: "allow" | "ask" | undefined; yes: boolean }): ApprovalVerdict {
  const { verdict, request, answer } = options;
  if (answer === "allow" && verdict === "ask" && hooksMayApprove(request)) return "auto";
  if (answer === "ask" && verdict === "auto" && !options.yes) return "ask";
  return verdict;
}
