/**
 * cairn's approval asks as ACP permission requests: allow once, allow always
 * (for the rest of the session, for the same kind of action), or reject.
 */
import { cardMetaOf, isToolMeta } from "../task/contracts/message-meta.js";
import type { PermissionOption, RequestPermissionOutcome } from "@agentclientprotocol/sdk";
import type { AskMessage, AskResponse } from "../task/contracts/messages.js";

export const permissionOptions: PermissionOption[] = [
  { optionId: "allow_once", name: "Allow", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow in this session", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
];

/** The asks an editor answers with a permission dialog; every other ask waits for the next prompt. */
export function isPermissionAsk(message: AskMessage): boolean {
  return message.ask === "tool" || message.ask === "command" || message.ask === "use_mcp_server";
}

/**
 * What "always allow" covers: every edit, every read outside the workspace,
 * commands starting with the same program, one MCP tool, web fetches.
 */
export function alwaysKey(message: AskMessage): string {
  const meta = cardMetaOf(message);
  if (isToolMeta(meta, "execute_command")) return `command:${(meta.command ?? message.text).trim().split(/\s+/, 1)[0] ?? ""}`;
  if (isToolMeta(meta, "use_mcp_tool")) return `mcp:${meta.server ?? ""}/${meta.name ?? ""}`;
  if (isToolMeta(meta, "custom_tool")) return `tool:${meta.name ?? ""}`;
  if (isToolMeta(meta, "access_mcp_resource")) return `mcp:${meta.server ?? ""}/${meta.uri ?? ""}`;
  const tool = meta?.tool ?? message.ask;
  switch (tool) {
    case "write_to_file":
    case "replace_in_file":
      return "edit";
    case "read_file":
    case "list_files":
    case "search_files":
    case "list_code_definition_names":
    case "lsp":
      return "read";
    default:
      return `tool:${tool}`;
  }
}

export type PermissionDecision = { answer: AskResponse; always: boolean };

export function decisionFor(outcome: RequestPermissionOutcome): PermissionDecision {
  if (outcome.outcome === "cancelled") return { answer: { response: "no" }, always: false };
  switch (outcome.optionId) {
    case "allow_once":
      return { answer: { response: "yes" }, always: false };
    case "allow_always":
      return { answer: { response: "yes" }, always: true };
    default:
      return { answer: { response: "no" }, always: false };
  }
}
