/**
 * Running a command outside the sandbox ("escalation", as Codex calls it):
 * only after an explicit ask that names why, never because of --yes alone. An
 * `Unsandboxed(...)` allow rule pre-approves it for the commands it names
 * (every program of the line, on its real parse); an `Unsandboxed` deny rule
 * forbids it. `sandboxFailure` reads a failed command's output for the sign
 * that the sandbox, not the command, was the problem.
 */
import { invocationText, wordsForRules } from "./command-assessment.js";
import { readEffects } from "./command-effects.js";
import type { PermissionRule, PermissionRules } from "./permission-rules.js";
import { analyzeShell } from "./shell-analysis.js";

export type UnsandboxedDecision = { kind: "allowed"; rules: PermissionRule[] } | { kind: "denied"; rule: PermissionRule } | { kind: "ask" };

/** Needs the shell grammar loaded (the approval has parsed the command already). */
export function unsandboxedByRules(command: string, rules: PermissionRules): UnsandboxedDecision {
  if (!rules.rules.some((rule) => rule.tool === "Unsandboxed")) return { kind: "ask" };
  let effects;
  try {
    effects = readEffects(analyzeShell(command));
  } catch {
    return { kind: "ask" };
  }
  const programs = effects.invocations.filter((invocation) => invocation.transparent !== true);
  const allowedBy: PermissionRule[] = [];
  let unmatched = false;
  for (const invocation of programs) {
    const found = rules.forUnsandboxedWords(wordsForRules(invocation));
    if (found?.decision === "deny") return { kind: "denied", rule: found.rule };
    if (found?.decision === "allow") allowedBy.push(found.rule);
    else unmatched = true;
  }
  if (unmatched || programs.length === 0 || effects.unsure.length > 0) return { kind: "ask" };
  return { kind: "allowed", rules: [...new Set(allowedBy)] };
}

/** The rule that would pre-approve running this command outside the sandbox, generalised as "always allow" does. */
export function unsandboxedSuggestion(command: string): string | undefined {
  try {
    const invocation = readEffects(analyzeShell(command)).invocations.find((candidate) => candidate.transparent !== true);
    if (invocation === undefined || invocation.words[0]?.dynamic !== false) return undefined;
    const text = invocationText(invocation).split(" ");
    const second = text[1];
    return `Unsandboxed(${second !== undefined && /^[a-z][a-z0-9-]*$/.test(second) ? `${text[0] ?? ""} ${second}` : (text[0] ?? "")}:*)`;
  } catch {
    return undefined;
  }
}

const readOnlyFileSystem = /Read-only file system|EROFS/;
const networkFailure =
  /Could not resolve host|Temporary failure in name resolution|Name or service not known|getaddrinfo (ENOTFOUND|EAI_AGAIN)|EAI_AGAIN|Network is unreachable|ENETUNREACH|No address associated with hostname|Failed to establish a new connection|dial tcp: lookup|network is unreachable|Could not connect to server|unable to access '[^']*': Could not resolve|request to https?:\/\/\S+ failed/;

/** Why a failed sandboxed command probably failed because of the sandbox, or undefined. */
export function sandboxFailure(output: string): string | undefined {
  if (/cairn: \S+ is denied by the rule/.test(output)) return undefined;
  const line = (pattern: RegExp): string => (output.split("\n").find((candidate) => pattern.test(candidate)) ?? "").trim().slice(0, 200);
  if (readOnlyFileSystem.test(output)) return `it tried to write outside the workspace or to a protected path ("${line(readOnlyFileSystem)}")`;
  if (networkFailure.test(output)) return `it needed the network, which the sandbox does not give ("${line(networkFailure)}")`;
  return undefined;
}
