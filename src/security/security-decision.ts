/**
 * The security half of an approval: rules, protected paths, credentials,
 * outside reads and writes, and commands on their real parse. Returns what the
 * approval policy must do before its own auto-approval settings are consulted:
 * refuse, ask explicitly (even with --yes), ask, run, or leave it to the
 * settings.
 */
import { assessCommand, type CommandAssessment, type PathOracle } from "./command-assessment.js";
import { parseRule, RuleSyntaxError, type PermissionRules } from "./permission-rules.js";

export type SandboxMode = "workspace-write" | "read-only" | "off";

export interface SecurityContext {
  rules: PermissionRules;
  /** The sandbox commands run in ("off": none). */
  sandbox: SandboxMode;
  /** The sandbox should be on but bubblewrap cannot run here: what is not known read-only is asked, --yes or not. */
  sandboxUnavailable?: boolean;
  yes: boolean;
  allowOutsideWrites: boolean;
  allowOutsideReads: boolean;
  paths: PathOracle;
}

export type SecurityVerdict =
  /** Run without asking (a rule allows it, or the sandbox contains it). */
  | { kind: "allow"; reason: string }
  /** Ask, and with --yes too: nobody answering means no. */
  | { kind: "ask-explicit"; reason: string }
  /** Ask explicitly (never answered by --yes) to run it outside the sandbox, naming why; an Unsandboxed rule pre-approves it. */
  | { kind: "escalate"; reason: string }
  /** Ask unless the auto-approval settings or --yes say otherwise. */
  | { kind: "ask"; reason: string }
  | { kind: "refuse"; reason: string }
  /** Nothing special: the auto-approval settings decide. */
  | { kind: "settings"; readOnly: boolean };

export interface PathRequest {
  access: "read" | "edit";
  /** Lexical and real absolute paths (they differ through links). */
  absolute: string;
  real: string;
  display: string;
  inside: boolean;
}

export function decidePath(request: PathRequest, context: SecurityContext): SecurityVerdict {
  const tool = request.access === "read" ? "Read" : "Edit";
  const ruled = [context.rules.forPath(tool, request.absolute), context.rules.forPath(tool, request.real)];
  const denied = ruled.find((entry) => entry?.decision === "deny");
  if (denied !== undefined) return { kind: "refuse", reason: `the rule ${denied.rule.text} (${denied.rule.source}) denies it` };
  const asked = ruled.find((entry) => entry?.decision === "ask");
  const allowed = ruled.find((entry) => entry?.decision === "allow");
  const facts = request.real === request.absolute ? [context.paths.facts(request.absolute)] : [context.paths.facts(request.absolute), context.paths.facts(request.real)];
  const credential = facts.some((fact) => fact.credential);
  if (credential && allowed === undefined && asked === undefined) {
    return { kind: "refuse", reason: `${request.display} holds credentials; only a rule naming it (such as ${tool}(${request.display})) allows it` };
  }
  if (request.access === "edit") {
    const protectedReason = facts.find((fact) => fact.protectedReason !== undefined)?.protectedReason;
    if (protectedReason !== undefined && allowed === undefined) {
      return { kind: "ask-explicit", reason: `${request.display} is protected (${protectedReason}); it is never written without an explicit approval` };
    }
  }
  if (asked !== undefined) return { kind: "ask-explicit", reason: `the rule ${asked.rule.text} (${asked.rule.source}) asks` };
  if (allowed !== undefined) return { kind: "allow", reason: `the rule ${allowed.rule.text} (${allowed.rule.source}) allows it` };
  if (!request.inside) {
    if (request.access === "edit" && context.yes && !context.allowOutsideWrites) {
      return { kind: "refuse", reason: `${request.display} is outside the workspace and writing there needs --allow-outside-writes (or an Edit rule)` };
    }
    if (request.access === "read" && context.yes && !context.allowOutsideReads) {
      return { kind: "refuse", reason: `${request.display} is outside the workspace and reading there needs --allow-outside-reads (or a Read rule)` };
    }
  }
  return { kind: "settings", readOnly: request.access === "read" };
}

function list(items: string[]): string {
  return items.slice(0, 5).join(", ") + (items.length > 5 ? ` and ${items.length - 5} more` : "");
}

/**
 * The decision for a command; also returns the assessment (for the prompt) and `offered`: the rules
 * "always allow" saves, only ever rules that together let this command run without asking.
 */
export async function decideCommand(command: string, context: SecurityContext): Promise<{ verdict: SecurityVerdict; assessment: CommandAssessment; offered: string[] | undefined }> {
  const assessment = await assessCommand({ command, rules: context.rules, paths: context.paths });
  const verdict = verdictFor(assessment, context);
  if (verdict.kind === "allow" || verdict.kind === "refuse") return { verdict, assessment, offered: undefined };
  const offered = await allowingRules(command, assessment, context);
  return { verdict, assessment: { ...assessment, suggestion: offered?.join(" and ") }, offered };
}

/**
 * The rules to offer as "always allow", the first of these that really lets this command run
 * without asking: the generalised rule of its first program (`Bash(<program> <subcommand>:*)`);
 * one such rule for each of its programs (a compound line, `npm test && npm run lint`, so that
 * the same line, or its parts in another order, runs the next time); the exact command line
 * (`Bash(<command>)`, one line). None when no allow rule lifts the ask (an ask rule, a protected
 * path): offering a rule that would ask again the next time makes "always" a lie.
 */
async function allowingRules(command: string, assessment: CommandAssessment, context: SecurityContext): Promise<string[] | undefined> {
  const exact = /[\r\n]/.test(command) ? undefined : `Bash(${command.trim()})`;
  const candidates = [assessment.suggestion === undefined ? [] : [assessment.suggestion], assessment.partRules.length > 1 ? assessment.partRules : [], exact === undefined ? [] : [exact]];
  for (const candidate of candidates) {
    if (candidate.length === 0) continue;
    let rules = context.rules;
    try {
      for (const text of candidate) rules = rules.with(parseRule(text, "allow", "the rule offered"));
    } catch (error) {
      if (error instanceof RuleSyntaxError) continue;
      throw error;
    }
    const again = await assessCommand({ command, rules, paths: context.paths });
    if (verdictFor(again, { ...context, rules }).kind === "allow") return candidate;
  }
  return undefined;
}

export function verdictFor(assessment: CommandAssessment, context: SecurityContext): SecurityVerdict {
  if (assessment.denied !== undefined) {
    const { rule, invocation } = assessment.denied;
    return { kind: "refuse", reason: `the rule ${rule.text} (${rule.source}) denies \`${invocation}\`` };
  }
  const exact = assessment.exactRule !== undefined;
  if (assessment.mayRunDenied !== undefined && !exact) {
    return { kind: "ask-explicit", reason: `it may run a program a deny rule names: ${assessment.mayRunDenied}` };
  }
  if (assessment.asked !== undefined) {
    const { rule, invocation } = assessment.asked;
    return { kind: "ask-explicit", reason: `the rule ${rule.text} (${rule.source}) asks before \`${invocation}\`` };
  }
  const sandboxed = context.sandbox !== "off";
  const denyRules = context.rules.rules.some((rule) => rule.tool === "Bash" && rule.decision === "deny");
  // What cannot be read statically is contained by the sandbox, unless a deny rule must hold: then a person decides.
  if (assessment.unsure.length > 0 && !exact && (!sandboxed || denyRules)) {
    const why = sandboxed ? " (a deny rule is in force, and the sandbox cannot tell what this runs)" : "";
    return { kind: "ask-explicit", reason: `cairn cannot fully check this command: ${list(assessment.unsure)}${why}` };
  }
  if (sandboxed) {
    // The sandbox would refuse a write to a protected path: approving it means running outside the sandbox.
    if (assessment.protectedWrites.length > 0) return { kind: "escalate", reason: `it writes protected paths: ${list(assessment.protectedWrites)}` };
    return { kind: "allow", reason: `runs in the ${context.sandbox} sandbox` };
  }
  if (assessment.protectedWrites.length > 0) {
    return { kind: "ask-explicit", reason: `it writes protected paths: ${list(assessment.protectedWrites)}` };
  }
  const editRule = (path: string) => context.rules.forPath("Edit", path)?.decision;
  const deniedWrite = assessment.writtenPaths.find((path) => editRule(path) === "deny");
  if (deniedWrite !== undefined) return { kind: "refuse", reason: `an Edit rule denies writing ${deniedWrite}` };
  const outside = assessment.outsideWrites.filter((path) => editRule(path) !== "allow");
  const writesOutside = outside.length > 0;
  const broad = assessment.broadReads.length > 0 && context.paths.hasIgnoredFiles?.() === true;
  const namesIgnored = assessment.ignoredFiles.length > 0 || broad;
  if ((writesOutside || namesIgnored) && !exact) {
    const why = writesOutside
      ? `it writes outside the workspace: ${list(outside)}`
      : assessment.ignoredFiles.length > 0
        ? `it names files hidden by the ignore file or holding credentials: ${list(assessment.ignoredFiles)}`
        : `it reads whole folders or git's history (${list(assessment.broadReads)}), where files the ignore file hides would be read`;
    if (context.yes && !(writesOutside && !namesIgnored && context.allowOutsideWrites)) {
      return { kind: "refuse", reason: `${why}; with --yes that needs ${writesOutside ? "--allow-outside-writes or " : ""}a rule allowing it` };
    }
    if (!(writesOutside && !namesIgnored && context.allowOutsideWrites)) return { kind: "ask", reason: why };
  }
  if (context.sandboxUnavailable === true) {
    if (assessment.readOnly) return { kind: "settings", readOnly: true };
    if (assessment.allowedByRules) return { kind: "allow", reason: "every program in it is allowed by a rule" };
    return {
      kind: "ask-explicit",
      reason: "the sandbox cannot run here, and this command is not known to be read-only (a rule naming it, or --sandbox off, lets such commands run)",
    };
  }
  if (assessment.allowedByRules) return { kind: "allow", reason: "every program in it is allowed by a rule" };
  return { kind: "settings", readOnly: assessment.readOnly };
}
