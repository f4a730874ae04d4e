/**
 * Whether a sandboxed command gets the network (#14). bubblewrap's network is
 * all or nothing per command, so the decision is per command line, on its real
 * parse: a Network deny rule matching any program it runs keeps the network
 * away (even with --sandbox-network); otherwise --sandbox-network gives it to
 * all; otherwise it gets it only when every program it runs is named by a
 * Network allow rule and nothing in it is beyond the parser (a substitution
 * such as `$(curl …)` is a program of its own, and must be allowed too).
 * A command that does not get the whole network reaches, when some
 * `Network(domain:…)` rule allows a host, the hosts such rules allow, through
 * cairn's proxy (`proxy`, #30; network-domains.ts), unless a Network deny rule
 * names one of its programs.
 */
import { invocationText, wordsForRules } from "./command-assessment.js";
import { readEffects } from "./command-effects.js";
import type { PermissionRule, PermissionRules } from "./permission-rules.js";
import { analyzeShell } from "./shell-analysis.js";
import { loadShellParser } from "./shell-parser.js";
import { allowsSomeDomain } from "./network-domains.js";

export interface NetworkDecision {
  network: boolean;
  /** Without the whole network: through cairn's proxy, to the hosts the Network domain rules allow. */
  proxy: boolean;
  reason: string;
  /** The rules that decided (the deny rule, or the allow rules of each program). */
  rules: PermissionRule[];
}

/** Needs the shell grammar loaded (every command is decided on its parse before it runs). */
export function commandNetworkSync(options: { command: string; rules: PermissionRules; sandboxNetwork: boolean }): NetworkDecision {
  const decided = wholeNetwork(options);
  if (decided.network || decided.denied === true || !allowsSomeDomain(options.rules.rules)) return { network: decided.network, proxy: false, reason: decided.reason, rules: decided.rules };
  return { network: false, proxy: true, reason: `${decided.reason}; it reaches the hosts the Network(domain:…) rules allow, through cairn's proxy`, rules: decided.rules };
}

type WholeNetwork = Omit<NetworkDecision, "proxy"> & { denied?: true };

function wholeNetwork(options: { command: string; rules: PermissionRules; sandboxNetwork: boolean }): WholeNetwork {
  const { command, rules, sandboxNetwork } = options;
  const base: WholeNetwork = sandboxNetwork
    ? { network: true, reason: "--sandbox-network gives every sandboxed command the network", rules: [] }
    : { network: false, reason: "no Network rule allows it (the sandbox has no network by default)", rules: [] };
  if (!rules.hasNetworkRules) return base;
  let effects;
  try {
    effects = readEffects(analyzeShell(command));
  } catch {
    return { network: false, reason: "the command could not be parsed, so no Network rule can give it the network", rules: [] };
  }
  const programs = effects.invocations.filter((invocation) => invocation.transparent !== true);
  const allowedBy: PermissionRule[] = [];
  let unmatched: string | undefined;
  for (const invocation of programs) {
    const found = rules.forNetworkWords(wordsForRules(invocation));
    if (found?.decision === "deny") return { network: false, denied: true, reason: `the rule ${found.rule.text} (${found.rule.source}) denies the network to \`${invocationText(invocation)}\``, rules: [found.rule] };
    if (found?.decision === "allow") allowedBy.push(found.rule);
    else unmatched ??= invocationText(invocation);
  }
  if (sandboxNetwork) return base;
  if (effects.unsure.length > 0) return { network: false, reason: `cairn cannot fully check this command (${effects.unsure[0] ?? ""}), so no Network rule gives it the network`, rules: [] };
  if (programs.length === 0 || unmatched !== undefined) {
    return { network: false, reason: unmatched === undefined ? base.reason : `no Network rule allows \`${unmatched}\` (every program it runs must be allowed)`, rules: [] };
  }
  const unique = [...new Set(allowedBy)];
  return { network: true, reason: `every program it runs is allowed the network by ${unique.map((rule) => `${rule.text} (${rule.source})`).join(", ")}`, rules: unique };
}

export async function commandNetwork(options: { command: string; rules: PermissionRules; sandboxNetwork: boolean }): Promise<NetworkDecision> {
  await loadShellParser();
  return commandNetworkSync(options);
}
