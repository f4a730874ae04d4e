/**
 * The actions of past tasks, read from their logs (src/store): each tool card
 * that went through the approval policy, what it asked for, and how it ended
 * (ran by itself, asked and approved, asked and refused, refused by a rule).
 * `cairn permissions suggest` and `replay` both work on these.
 */
import { isAbsolute, resolve } from "node:path";
import type { TaskStore } from "../../store/task-store.js";
import type { UiMessage } from "../../task/contracts/messages.js";
import type { ToolCard } from "../../task/contracts/tool-meta.js";
import type { ApprovalRequest, ApprovalVerdict } from "../../tools/approval.js";

/** What happened to an action: ran without asking, asked and approved, asked and refused by the user, refused by the policy. */
export type PastOutcome = "auto" | "approved" | "refused-by-you" | "refused";

export interface PastAction {
  taskId: string;
  workspace: string;
  tool: string;
  /** The command, path, MCP call or address, as the card showed it. */
  text: string;
  request: ApprovalRequest;
  outcome: PastOutcome;
  /** The rules "always allow" offered when it was asked. */
  offered: string[];
}

export interface PastTasks {
  tasks: number;
  actions: PastAction[];
}

/** The actions of the newest `limit` tasks of `workspace`, oldest first. */
export async function readPastActions(store: TaskStore, options: { workspace: string; limit: number }): Promise<PastTasks> {
  const { rows } = await store.listNewest({ limit: options.limit, workspace: options.workspace });
  const actions: PastAction[] = [];
  for (const row of [...rows].reverse()) {
    const loaded = await store.load(row.taskId).catch(() => undefined);
    if (loaded === undefined) continue;
    for (const message of loaded.uiMessages) {
      const action = actionOf(message, row.taskId, loaded.meta.workspace);
      if (action !== undefined) actions.push(action);
    }
  }
  return { tasks: rows.length, actions };
}

function actionOf(message: UiMessage, taskId: string, workspace: string): PastAction | undefined {
  if (message.type !== "say" || (message.say !== "tool" && message.say !== "command") || message.partial === true) return undefined;
  const card = message.meta as ToolCard | undefined;
  if (card?.approval === undefined) return undefined;
  const request = requestOf(card, workspace);
  if (request === undefined) return undefined;
  return {
    taskId,
    workspace,
    tool: card.tool,
    text:
      request.kind === "command"
        ? request.command
        : "path" in request
          ? request.path
          : request.kind === "web"
            ? (request.url ?? "")
            : request.kind === "mcp"
              ? `${request.server ?? ""} ${request.tool ?? ""}`
              : request.tool,
    request,
    outcome: outcomeOf(card.approval, card.status),
    offered: card.suggestedRule === undefined ? [] : card.suggestedRule.split(" and "),
  };
}

function outcomeOf(approval: ApprovalVerdict, status: ToolCard["status"]): PastOutcome {
  if (approval === "auto") return "auto";
  if (approval === "refuse") return "refused";
  return status === "rejected" ? "refused-by-you" : "approved";
}

const editTools = new Set(["write_to_file", "replace_in_file", "new_rule"]);
const readTools = new Set(["read_file", "list_files", "search_files", "list_code_definition_names"]);

/** The approval request the card was decided on, rebuilt from what it recorded. */
function requestOf(card: ToolCard, workspace: string): ApprovalRequest | undefined {
  const fields = card as Record<string, unknown>;
  const text = (name: string): string | undefined => (typeof fields[name] === "string" ? fields[name] : undefined);
  const command = text("command");
  if (card.tool === "execute_command" && command !== undefined) return { kind: "command", command, requiresApproval: fields["requiresApproval"] !== false };
  const path = text("path");
  if (path !== undefined && (editTools.has(card.tool) || readTools.has(card.tool))) {
    const absolute = isAbsolute(path) ? path : resolve(workspace, path);
    return { kind: editTools.has(card.tool) ? "edit" : "read", inside: fields["outsideWorkspace"] !== true, path, absolute, real: absolute };
  }
  const server = text("server");
  const name = text("name");
  if (card.tool === "use_mcp_tool" && server !== undefined) return { kind: "mcp", serverAutoApprove: false, server, ...(name === undefined ? {} : { tool: name }) };
  if (card.tool === "access_mcp_resource" && server !== undefined) return { kind: "mcp", serverAutoApprove: false, server };
  const url = text("url");
  if ((card.tool === "web_fetch" || card.tool === "browser_action") && url !== undefined) return { kind: "web", url };
  if (card.tool === "custom_tool" && name !== undefined) return { kind: "custom", tool: name, readOnly: false };
  return undefined;
}
