/**
 * The one approval policy every tool call goes through: what runs by itself,
 * what asks the user, and what is refused outright. The security layer
 * (rules, protected paths, credentials, commands on their real parse) speaks
 * first; the auto-approval settings and --yes decide only what it leaves open.
 */
import { escapeHidden, escapeMetaStrings, flagHidden } from "../security/display-text.js";
import { parseRule, PermissionRules, type PermissionRule } from "../security/permission-rules.js";
import { addAllowRule } from "../security/rule-store.js";
import { decideCommand, decidePath, type SandboxMode, type SecurityContext, type SecurityVerdict } from "../security/security-decision.js";
import { unsandboxedByRules, unsandboxedSuggestion } from "../security/escalation.js";
import type { PathOracle } from "../security/command-assessment.js";
import type { ToolCardMeta, ToolMeta, ToolMetaOf } from "../task/contracts/message-meta.js";
import type { ToolCallContext, ToolOutcome } from "../task/contracts/tool-executor.js";
import { alwaysAllowChoice, type AskResponse } from "../task/contracts/messages.js";
import { denied, toolError } from "./responses.js";
import type { ActionJudge } from "./auto-mode/judge-contract.js";
import { judgeAsk } from "./auto-mode/apply-judgement.js";
import { previewOffer } from "./preview/preview-offer.js";

/** `true` means "auto-approve": run without asking. */
export interface ApprovalSettings {
  readInside: boolean;
  readOutside: boolean;
  editInside: boolean;
  editOutside: boolean;
  /** Commands cairn's parse finds read-only (and the model did not mark as needing approval). */
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
  | { kind: "read"; inside: boolean; path: string; absolute?: string; real?: string }
  | { kind: "edit"; inside: boolean; path: string; absolute?: string; real?: string }
  | { kind: "command"; command: string; requiresApproval: boolean }
  | { kind: "mcp"; serverAutoApprove: boolean; server?: string; tool?: string }
  | { kind: "web"; url?: string }
  /** A custom tool of an embedding program (src/tools/custom-tool.ts): asks, unless it only reads (then as reads inside the workspace). */
  | { kind: "custom"; tool: string; readOnly: boolean };

export type ApprovalVerdict = "auto" | "ask" | "refuse";

export interface VerdictDetail {
  verdict: ApprovalVerdict;
  /** The command can only run outside the sandbox (why): approving it means running it there. */
  escalate?: string;
  /** Unsandboxed rules send every program of the command outside the sandbox: it was judged as an unconfined command. */
  outside?: PermissionRule[];
  /** Why, when the security layer decided (shown to the user and the model). */
  reason?: string;
  /** An ask that --yes does not answer: nobody answering means no. */
  explicit?: boolean;
  /** The rules "always" saves: together they would allow calls like this one. */
  suggestion?: string[];
}

/** `unsandboxed`: the user (or an Unsandboxed rule) approved running the command outside the sandbox. */
export type ApprovalDecision = { approved: true; feedback?: string; unsandboxed?: true } | { approved: false; outcome: ToolOutcome; preview?: true };

export interface Presentation {
  /** Key of the partial `say` shown while the call streamed. */
  key: string;
  text: string;
  /** The card's meta, declared per tool (src/task/contracts/tool-meta.ts). */
  meta: ToolMeta;
}

export interface ApprovalPolicyOptions {
  settings: ApprovalSettings;
  yes: boolean;
  allowOutsideWrites: boolean;
  allowOutsideReads?: boolean;
  rules?: PermissionRules;
  sandbox?: SandboxMode;
  /** The sandbox should be on but cannot run here (commands that are not known read-only are asked, --yes or not). */
  sandboxUnavailable?: boolean;
  /** What cairn knows about paths (inside, ignored, protected, credentials). */
  paths?: PathOracle;
  /** Where "always allow" saves a rule: the user's or the project's config file. */
  ruleFiles?: { user: string; project: string };
  /** Auto mode: what would be asked (and a person could approve) is judged by a model instead. */
  judge?: ActionJudge;
}

const nowhere: PathOracle = {
  cwd: process.cwd(),
  facts: (path) => ({ inside: true, ignored: false, protectedReason: undefined, credential: false, display: path }),
};

export class ApprovalPolicy {
  private readonly security: SecurityContext;

  constructor(private readonly options: ApprovalPolicyOptions) {
    this.security = {
      rules: options.rules ?? new PermissionRules([], options.paths?.cwd ?? process.cwd()),
      sandbox: options.sandbox ?? "off",
      ...(options.sandboxUnavailable === true ? { sandboxUnavailable: true } : {}),
      yes: options.yes,
      allowOutsideWrites: options.allowOutsideWrites,
      allowOutsideReads: options.allowOutsideReads ?? false,
      paths: options.paths ?? nowhere,
    };
  }

  /**
   * The same policy (same rules, settings and "always allow" answers) for one tool call that asks
   * about many paths (a search's matched files, a listing): what it knows about paths is read once
   * for the call (the ignore files, git's hooks folder), as for the words of one command.
   */
  forOneCall(): ApprovalPolicy {
    const paths = this.security.paths.snapshot?.();
    if (paths === undefined) return this;
    return new ApprovalPolicy({ ...this.options, rules: this.security.rules, paths });
  }

  get rules(): PermissionRules {
    return this.security.rules;
  }

  /** "Always allow": the suggested rule counts at once and is saved where the user chose. */
  async alwaysAllow(rule: string, where: "user" | "project", context: ToolCallContext): Promise<void> {
    const file = this.options.ruleFiles?.[where];
    this.security.rules.add(parseRule(rule, "allow", file === undefined ? "this task" : `${where} ${file}`));
    if (file === undefined) return;
    try {
      await addAllowRule(file, rule);
      context.say("info", `Saved the rule ${rule} in ${file}.`);
    } catch (error) {
      context.say("warning", `The rule ${rule} applies to this task but could not be saved: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async verdict(request: ApprovalRequest): Promise<VerdictDetail> {
    let security: SecurityVerdict;
    let suggestion: string[] | undefined;
    let outside: PermissionRule[] | undefined;
    switch (request.kind) {
      case "read":
      case "edit":
        security = decidePath({ access: request.kind, absolute: request.absolute ?? request.path, real: request.real ?? request.absolute ?? request.path, display: request.path, inside: request.inside }, this.security);
        break;
      case "command": {
        // Unsandboxed allow rules (Claude Code's sandbox.excludedCommands among them) send the command outside: judged as unconfined.
        const ruled = this.security.sandbox === "off" ? undefined : unsandboxedByRules(request.command, this.security.rules);
        outside = ruled?.kind === "allowed" ? ruled.rules : undefined;
        const decided = await decideCommand(request.command, outside === undefined ? this.security : { ...this.security, sandbox: "off", sandboxUnavailable: false });
        security = decided.verdict;
        suggestion = decided.offered;
        break;
      }
      case "mcp": {
        const found = request.server === undefined ? undefined : this.security.rules.forMcp(request.server, request.tool ?? "");
        security = ruleVerdict(found);
        break;
      }
      case "web": {
        const found = request.url === undefined ? undefined : this.security.rules.forWeb(request.url);
        security = ruleVerdict(found);
        break;
      }
      case "custom":
        // Ruled by its name (`lookup_ticket`), which is also the rule "always" saves.
        security = ruleVerdict(this.security.rules.forTool(request.tool));
        suggestion = [request.tool];
        break;
    }
    const combined = this.combine(request, security);
    const detail = outside === undefined ? combined : { ...combined, outside, reason: [combined.reason, `runs outside the sandbox as ${describeRules(outside)} allows`].filter((part) => part !== undefined).join("; ") };
    return suggestion === undefined ? detail : { ...detail, suggestion };
  }

  private combine(request: ApprovalRequest, security: SecurityVerdict): VerdictDetail {
    switch (security.kind) {
      case "refuse":
        return { verdict: "refuse", reason: security.reason };
      case "ask-explicit":
        return { verdict: "ask", reason: security.reason, explicit: true };
      case "escalate":
        return { verdict: "ask", reason: `${security.reason}; the sandbox would refuse it, so approving runs it outside the sandbox`, explicit: true, escalate: security.reason };
      case "ask":
        return { verdict: this.options.yes ? "auto" : "ask", reason: security.reason };
      case "allow":
        return { verdict: "auto", reason: security.reason };
      case "settings":
        return { verdict: this.fromSettings(request, security.readOnly) };
    }
  }

  private fromSettings(request: ApprovalRequest, readOnly: boolean): ApprovalVerdict {
    const { settings, yes, allowOutsideWrites } = this.options;
    if (request.kind === "edit" && !request.inside && yes && !allowOutsideWrites) return "refuse";
    if (yes) return "auto";
    switch (request.kind) {
      case "read":
        return (request.inside ? settings.readInside : settings.readOutside || this.security.allowOutsideReads) ? "auto" : "ask";
      case "edit":
        return (request.inside ? settings.editInside : settings.editOutside) ? "auto" : "ask";
      case "command":
        // The model's requires_approval can only add caution: `false` counts only when cairn's own parse finds the command read-only.
        if (settings.commandsAll) return "auto";
        return settings.commandsSafe && readOnly && !request.requiresApproval ? "auto" : "ask";
      case "mcp":
        return settings.mcp || request.serverAutoApprove ? "auto" : "ask";
      case "web":
        return settings.webFetch ? "auto" : "ask";
      case "custom":
        return request.readOnly && settings.readInside ? "auto" : "ask";
    }
  }

  /** Shows what will happen and, when the policy says so, waits for the user. */
  async approve(options: { request: ApprovalRequest; context: ToolCallContext; presentation: Presentation }): Promise<ApprovalDecision> {
    const { request, context, presentation } = options;
    const found = await this.verdict(request);
    if (found.escalate !== undefined && request.kind === "command") {
      const ruled = unsandboxedByRules(request.command, this.security.rules);
      if (ruled.kind === "denied") return { approved: false, outcome: refused(`${found.escalate}, and the rule ${ruled.rule.text} (${ruled.rule.source}) keeps it in the sandbox`) };
      if (ruled.kind === "allowed") {
        const reason = `${found.escalate}; runs outside the sandbox as ${describeRules(ruled.rules)} allows`;
        const shownMeta = escapeMetaStrings(presentation.meta);
        if (shownMeta.tool === "execute_command") context.say("command", presentation.text, { partial: false, key: presentation.key, meta: { ...shownMeta, approval: "auto", reason, unsandboxed: true } });
        return { approved: true, unsandboxed: true };
      }
    }
    // A PreToolUse hook's answer counts only where the security rules leave the choice open.
    const hookMayApprove = hooksMayApprove(request, found.explicit === true) && context.hookApproval !== "ask-explicit";
    const hooked = withHookAnswer({ verdict: found.verdict, hookMayApprove, answer: context.hookApproval, yes: this.options.yes });
    const detail = hooked === "ask" && context.hookApproval === "ask-explicit" ? hookAsks(found, context.hookApprovalReason) : found;
    const shown = flagHidden(presentation.text);
    // Auto mode judges only what a hook's allow could have lifted: never an explicit ask, a path outside the workspace or an escalation.
    const { judge } = this.options;
    const judged =
      judge?.active === true && hooked === "ask" && hookMayApprove && detail.explicit !== true
        ? await judgeAsk({ judge, text: shown.text, meta: presentation.meta, reason: detail.reason, signal: context.signal })
        : undefined;
    const verdict = judged?.verdict ?? hooked;
    const card: ToolCardMeta = { approval: verdict };
    if (judged !== undefined) card.autoMode = judged.card;
    if (shown.hidden.length > 0) card.hiddenCharacters = shown.hidden;
    if (detail.reason !== undefined) card.reason = detail.reason;
    if (detail.explicit === true) card.explicitApproval = true;
    if (detail.suggestion !== undefined) card.suggestedRule = detail.suggestion.join(" and ");
    if (detail.escalate !== undefined || detail.outside !== undefined) card.unsandboxed = true;
    // A PermissionRequest hook may answer this ask only where a PreToolUse allow could skip it.
    if (verdict === "ask") card.hookMayApprove = hookMayApprove;
    const meta: ToolMeta = { ...escapeMetaStrings(presentation.meta), ...card, ...(verdict === "ask" ? previewOffer(request, detail, this.security) : {}) };
    const reasonLine = judged !== undefined ? judged.line : verdict !== "auto" ? detail.reason : undefined;
    const text = reasonLine !== undefined ? `${shown.text}\n(${escapeHidden(reasonLine).text})` : shown.text;
    const sayType = request.kind === "command" ? "command" : "tool";
    context.say(sayType, text, { partial: false, key: presentation.key, meta });
    if (verdict === "refuse") return { approved: false, outcome: refused(judged?.line ?? detail.reason ?? "this is not allowed") };
    const escalated = detail.escalate !== undefined || detail.outside !== undefined ? { unsandboxed: true as const } : {};
    if (verdict === "auto") return { approved: true, ...escalated };
    const askType = request.kind === "command" ? "command" : request.kind === "mcp" ? "use_mcp_server" : "tool";
    const answer = await context.ask(askType, `${text}${alwaysOffer(detail.suggestion)}`, { meta });
    if (answer.response === "no" && answer.preview === true && "previewable" in meta) return { approved: false, outcome: denied(undefined), preview: true };
    if (await this.answeredAlways(answer, detail.suggestion, context)) return { approved: true, ...escalated };
    if (answer.response === "yes") return answer.text === undefined ? { approved: true, ...escalated } : { approved: true, feedback: answer.text, ...escalated };
    return { approved: false, outcome: denied(answer.text) };
  }

  /**
   * "Always" (chosen from a menu, typed as the answer at a headless prompt, or sent with a yes) saves the
   * offered rule, in the user's config or the project's; true when it did.
   */
  private async answeredAlways(answer: AskResponse, suggestion: string[] | undefined, context: ToolCallContext): Promise<boolean> {
    if (suggestion === undefined || answer.response === "no") return false;
    const where = (answer.response === "yes" ? answer.always : undefined) ?? alwaysAllowChoice(answer.text);
    if (where === undefined) return false;
    for (const rule of suggestion) await this.alwaysAllow(rule, where, context);
    return true;
  }

  /**
   * A sandboxed command failed because of the sandbox (`why`): ask, explicitly
   * (--yes does not answer), to run it again outside; an Unsandboxed rule
   * answers for the commands it names. Returns whether to run it again there.
   */
  async escalateAfterFailure(options: { command: string; why: string; context: ToolCallContext; key: string }): Promise<{ rerun: true; reason: string } | { rerun: false; reason: string }> {
    const { command, why, context } = options;
    const ruled = unsandboxedByRules(command, this.security.rules);
    const suggested = unsandboxedSuggestion(command);
    const suggestion = suggested === undefined ? undefined : [suggested];
    if (ruled.kind === "denied") return { rerun: false, reason: `the rule ${ruled.rule.text} (${ruled.rule.source}) keeps it in the sandbox` };
    if (ruled.kind === "allowed") return { rerun: true, reason: `${ruled.rules.map((rule) => rule.text).join(", ")} allows it to run outside the sandbox` };
    const meta: ToolMeta = {
      tool: "execute_command",
      command: escapeHidden(command).text,
      approval: "ask",
      explicitApproval: true,
      unsandboxed: true,
      reason: `it failed in the sandbox: ${why}`,
      ...(suggested === undefined ? {} : { suggestedRule: suggested }),
    } satisfies ToolMetaOf<"execute_command">;
    const shown = flagHidden(command).text;
    const question = `${shown}\n(It failed in the sandbox: ${escapeHidden(why).text}. Run it again outside the sandbox, with your full permissions?)${alwaysOffer(suggestion)}`;
    const answer = await context.ask("command", question, { meta });
    if (await this.answeredAlways(answer, suggestion, context)) return { rerun: true, reason: `you allowed ${suggested ?? ""} to run outside the sandbox from now on` };
    if (answer.response === "yes") return { rerun: true, reason: "you approved running it outside the sandbox" };
    const hint = suggested === undefined ? "" : ` (an ${suggested} rule in the user's settings would allow it)`;
    return { rerun: false, reason: `running it outside the sandbox needs the user's explicit approval, which it did not get${hint}` };
  }
}

function ruleVerdict(found: { decision: "allow" | "ask" | "deny"; rule: { text: string; source: string } } | undefined): SecurityVerdict {
  if (found === undefined) return { kind: "settings", readOnly: false };
  const why = `the rule ${found.rule.text} (${found.rule.source})`;
  if (found.decision === "deny") return { kind: "refuse", reason: `${why} denies it` };
  if (found.decision === "ask") return { kind: "ask-explicit", reason: `${why} asks` };
  return { kind: "allow", reason: `${why} allows it` };
}

/** How an ask offers its rules for "always". */
function alwaysOffer(suggestion: string[] | undefined): string {
  return suggestion === undefined ? "" : `\n(answer "always" to allow ${suggestion.join(" and ")} from now on, saved in your config; "always project" saves it for this project)`;
}

export function refused(reason: string): ToolOutcome {
  return toolError(`cairn refused this: ${reason}. It did not run. Continue without it, or ask the user to change the rules.`);
}

/**
 * Whether a hook's `allow` may stand in for the user's yes (#15). Never for what
 * the security rules require the user to see: an explicit ask (protected paths,
 * ask rules, commands the parser cannot understand outside the sandbox), reads
 * and edits outside the workspace.
 */
export function hooksMayApprove(request: ApprovalRequest, explicitAsk: boolean): boolean {
  if (explicitAsk) return false;
  if (request.kind === "read" || request.kind === "edit") return request.inside;
  return true;
}

/**
 * A PreToolUse hook's answer: `allow` lifts an ask hooks may lift; `ask` turns an automatic approval
 * into an ask (not under --yes); `ask-explicit` does so under --yes too.
 */
function withHookAnswer(options: { verdict: ApprovalVerdict; hookMayApprove: boolean; answer: ToolCallContext["hookApproval"]; yes: boolean }): ApprovalVerdict {
  const { verdict, answer } = options;
  if (answer === "allow" && verdict === "ask" && options.hookMayApprove) return "auto";
  if (answer === "ask" && verdict === "auto" && !options.yes) return "ask";
  if (answer === "ask-explicit" && verdict === "auto") return "ask";
  return verdict;
}

/** A hook asked for a person (Claude Code's "ask"): an explicit ask, which --yes does not answer, with the hook's reason. */
function hookAsks(detail: VerdictDetail, reason: string | undefined): VerdictDetail {
  const why = `a PreToolUse hook asks for your approval${reason === undefined ? "" : `: ${reason}`}`;
  return { ...detail, verdict: "ask", explicit: true, reason: detail.reason === undefined ? why : `${detail.reason}; ${why}` };
}

function describeRules(rules: readonly PermissionRule[]): string {
  return rules.map((rule) => `${rule.text} (${rule.source})`).join(", ");
}
