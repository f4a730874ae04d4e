/**
 * Hosts cairn's network proxy refused to a sandboxed command (#30): said to
 * the model, and offered to the user, who may allow them (for this task, or
 * always: a `Network(domain:…)` rule saved as "always allow" saves rules) and
 * have the command run again, still in the sandbox. --yes never allows a host:
 * the ask is explicit, as running a command outside the sandbox is.
 */
import { parseRule } from "../security/permission-rules.js";
import { alwaysAllowChoice } from "../task/contracts/messages.js";
import type { ToolMetaOf } from "../task/contracts/message-meta.js";
import { escapeHidden } from "../security/display-text.js";
import type { ToolRuntime } from "./tool-definition.js";

export function domainRuleFor(host: string): string {
  return `Network(domain:${host})`;
}

/** What the model is told. */
export function refusedHostsNote(hosts: readonly string[]): string {
  const rules = hosts.map(domainRuleFor).join(", ");
  return `[cairn's network proxy refused ${hosts.join(", ")}: the sandbox reaches only the hosts a Network(domain:…) rule allows. Ask the user to allow ${hosts.length === 1 ? "it" : "them"} (${rules}) if the task needs ${hosts.length === 1 ? "it" : "them"}.]`;
}

/** Asks the user whether to allow the refused hosts and run the command again; true when allowed (the rules then count at once). */
export async function offerRefusedHosts(options: { runtime: ToolRuntime; command: string; hosts: readonly string[] }): Promise<boolean> {
  const { runtime, hosts } = options;
  const rules = hosts.map(domainRuleFor);
  const shown = escapeHidden(options.command).text;
  const reason = `cairn's network proxy refused ${hosts.join(", ")}`;
  const meta = {
    tool: "execute_command",
    command: shown,
    approval: "ask",
    explicitApproval: true,
    reason,
    suggestedRule: rules.join(" and "),
  } satisfies ToolMetaOf<"execute_command">;
  const question = `${shown}\n(${reason}: no Network(domain:…) rule allows ${hosts.length === 1 ? "it" : "them"}. Allow ${hosts.join(", ")} for this task and run the command again in the sandbox?)\n(answer "always" to allow ${rules.join(" and ")} from now on, saved in your config; "always project" saves it for this project)`;
  const answer = await runtime.context.ask("command", question, { meta });
  if (answer.response !== "yes") return false;
  const where = answer.always ?? alwaysAllowChoice(answer.text);
  for (const rule of rules) {
    if (where !== undefined) await runtime.approvals.alwaysAllow(rule, where, runtime.context);
    else runtime.approvals.rules.add(parseRule(rule, "allow", "this task"));
  }
  return true;
}
