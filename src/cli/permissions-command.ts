/**
 * `cairn permissions`: the permission rules in force and where each came from.
 * `cairn permissions check "<command>"`: the decision for a command, explained
 * on its real parse (each program and the rule that matched, what it writes,
 * what cairn could not understand, and the rule "always allow" would offer).
 */
import { commandSettings } from "./command-settings.js";
import type { Command } from "commander";
import type { CliFlags, ResolvedSettings } from "../config/index.js";
import { addSecurityOptions } from "../security/cli-options.js";
import { registerHistoryCommands } from "./permissions-history-commands.js";

type PermissionsOptions = CliFlags & { json?: boolean };

function resolve(flags: PermissionsOptions): Promise<ResolvedSettings | number> {
  return commandSettings({ flags, trust: flags.trust });
}

function listRules(settings: ResolvedSettings, json: boolean): void {
  const rules = settings.permissions.map((rule) => ({ decision: rule.decision, rule: rule.text, source: rule.source }));
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ rules, sandbox: settings.sandbox, sandboxNetwork: settings.sandboxNetwork, yes: settings.yes, allowOutsideWrites: settings.allowOutsideWrites, allowOutsideReads: settings.allowOutsideReads, gated: settings.trust.gated })}\n`,
    );
    return;
  }
  if (rules.length === 0) process.stdout.write('No permission rules. Add them under "permissions" in the config, in Claude Code\'s format.\n');
  for (const decision of ["deny", "ask", "allow"] as const) {
    for (const rule of rules.filter((entry) => entry.decision === decision)) process.stdout.write(`${decision.padEnd(5)}  ${rule.rule}  (${rule.source})\n`);
  }
  process.stdout.write(
    `\nDeny wins over ask over allow, whatever the source. Sandbox: ${settings.sandbox}${settings.sandbox === "off" ? "" : `, network ${settings.sandboxNetwork ? "on for every command" : "only for commands a Network(...) allow rule names"}`}.\n`,
  );
  if (settings.trust.gated.includes("permissions.allow")) process.stdout.write("The project's allow rules are ignored until the folder is trusted (--trust).\n");
}

async function check(settings: ResolvedSettings, command: string, json: boolean): Promise<void> {
  const [{ ApprovalPolicy }, { WorkspaceGuard }, { workspacePathOracle }, { PermissionRules }, { decideCommand }, { commandNetwork }] = await Promise.all([
    import("../tools/approval.js"),
    import("../tools/workspace-guard.js"),
    import("../tools/path-facts.js"),
    import("../security/permission-rules.js"),
    import("../security/security-decision.js"),
    import("../security/network-rules.js"),
  ]);
  const rules = new PermissionRules(settings.permissions, settings.cwd);
  const paths = workspacePathOracle(new WorkspaceGuard(settings.cwd), settings.userConfigDir);
  const context = {
    rules,
    sandbox: settings.sandbox,
    sandboxUnavailable: settings.sandboxUnavailable,
    yes: settings.yes,
    allowOutsideWrites: settings.allowOutsideWrites,
    allowOutsideReads: settings.allowOutsideReads,
    paths,
  };
  const { verdict, assessment } = await decideCommand(command, context);
  const policy = new ApprovalPolicy({
    settings: settings.autoApprove,
    yes: settings.yes,
    allowOutsideWrites: settings.allowOutsideWrites,
    allowOutsideReads: settings.allowOutsideReads,
    rules,
    sandbox: settings.sandbox,
    sandboxUnavailable: settings.sandboxUnavailable,
    paths,
  });
  const final = await policy.verdict({ kind: "command", command, requiresApproval: true });
  const decision =
    final.verdict === "refuse"
      ? "deny"
      : final.verdict === "auto"
        ? "allow"
        : final.escalate !== undefined
          ? "ask to run outside the sandbox (explicitly, even with --yes)"
          : final.explicit === true
            ? "ask (explicitly, even with --yes)"
            : "ask";
  // The sandbox's network for this command (#14): Network rules, or --sandbox-network; without a sandbox, commands have the network anyway.
  const networkDecision = await commandNetwork({ command, rules, sandboxNetwork: settings.sandboxNetwork });
  const network =
    settings.sandbox === "off"
      ? { allowed: true, reason: "the sandbox is off: commands have the machine's network" }
      : {
          allowed: networkDecision.network,
          ...(networkDecision.proxy ? { proxy: true } : {}),
          reason: networkDecision.reason,
          ...(networkDecision.rules.length > 0 ? { rules: networkDecision.rules.map((rule) => rule.text) } : {}),
        };
  const reason = verdict.kind === "settings" ? (assessment.readOnly ? "read-only; the auto-approval settings decide" : "no rule matches; the auto-approval settings and --yes decide") : verdict.reason;
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ decision: final.verdict, explicit: final.explicit === true, reason, ...assessment, denied: assessment.denied && { invocation: assessment.denied.invocation, rule: assessment.denied.rule.text }, asked: assessment.asked && { invocation: assessment.asked.invocation, rule: assessment.asked.rule.text }, exactRule: assessment.exactRule?.text, network })}\n`,
    );
    return;
  }
  const lines = [`${decision}: ${reason}`, "", "programs it runs:"];
  for (const invocation of assessment.invocations) {
    const words = invocation.split(" ").map((word) => (word === "…" ? undefined : word));
    const found = rules.forCommandWords(words);
    const networkRule = rules.forNetworkWords(words);
    lines.push(
      `  ${invocation}${found ? `  ← ${found.decision} ${found.rule.text} (${found.rule.source})` : ""}${networkRule ? `  ← network ${networkRule.decision} ${networkRule.rule.text} (${networkRule.rule.source})` : ""}`,
    );
  }
  if (assessment.outsideWrites.length > 0) lines.push(`writes outside the workspace: ${assessment.outsideWrites.join(", ")}`);
  if (assessment.protectedWrites.length > 0) lines.push(`writes protected paths: ${assessment.protectedWrites.join(", ")}`);
  if (assessment.ignoredFiles.length > 0) lines.push(`names ignored or credential files: ${assessment.ignoredFiles.join(", ")}`);
  if (assessment.unsure.length > 0) lines.push(`not fully understood: ${assessment.unsure.join("; ")}`);
  if (assessment.vouched.length > 0) lines.push(`vouched for by a rule naming the program: ${assessment.vouched.join("; ")}`);
  if (assessment.mayRunDenied !== undefined) lines.push(`may run a denied program: ${assessment.mayRunDenied}`);
  if (assessment.broadReads.length > 0) lines.push(`reads whole folders or git's history: ${assessment.broadReads.join(", ")}`);
  lines.push(`read-only (every program and option on the known-safe list): ${assessment.readOnly ? "yes" : "no"}`);
  if (assessment.suggestion !== undefined) lines.push(`"always allow" would offer: ${assessment.suggestion}`);
  lines.push(`network: ${network.allowed ? "yes" : "proxy" in network ? "through cairn's proxy, by domain" : "no"}: ${network.reason}`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

function withOptions(command: Command): Command {
  return addSecurityOptions(
    command
      .option("--cwd <dir>", "workspace folder (default: the current folder)")
      .option("--json", "print JSON")
      .option("-y, --yes", "decide as with --yes")
      .option("--allow-outside-writes", "decide as with --allow-outside-writes")
      .option("--trust", "trust this folder's .cairn config"),
  );
}

export function registerPermissionsCommand(program: Command): void {
  const permissions = withOptions(program.command("permissions").description("list the permission rules in force and where each came from")).action(async (flags: PermissionsOptions) => {
    const settings = await resolve(flags);
    if (typeof settings === "number") {
      process.exitCode = settings;
      return;
    }
    listRules(settings, flags.json === true);
  });
  withOptions(permissions.command("check").description("explain the decision for a command").argument("<command...>", "the command line (quote it)")).action(
    async (words: string[], _options: unknown, command: Command) => {
      const flags = command.optsWithGlobals<PermissionsOptions>();
      const settings = await resolve(flags);
      if (typeof settings === "number") {
        process.exitCode = settings;
        return;
      }
      await check(settings, words.join(" "), flags.json === true);
    },
  );
  registerHistoryCommands(permissions, { withOptions, resolve });
}
