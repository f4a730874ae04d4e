/**
 * `cairn show` draws a task's subagents (issue #17): the children a task
 * started (from its log's links) with their status and usage, and for a
 * child, the task it belongs to.
 */
import { metaOf } from "../task/contracts/message-meta.js";
import type { TaskStore } from "../store/task-store.js";
import type { LoadedTask } from "../store/types.js";

export interface SubagentNode {
  subagentId: string;
  agent: string;
  taskId: string;
  status: string;
  tokensIn: number;
  tokensOut: number;
  cost: number;
}

export async function subagentsOf(store: TaskStore, loaded: LoadedTask): Promise<SubagentNode[]> {
  const byTask = new Map<string, { subagentId: string; agent: string }>();
  for (const message of loaded.uiMessages) {
    const link = metaOf(message, "info");
    if (link !== undefined && "childTaskId" in link) byTask.set(link.childTaskId, { subagentId: link.subagentId, agent: link.agent });
  }
  const nodes: SubagentNode[] = [];
  for (const [taskId, link] of byTask) {
    const child = await store.load(taskId).catch(() => undefined);
    nodes.push({ ...link, taskId, status: child?.status ?? "missing", tokensIn: child?.tokensIn ?? 0, tokensOut: child?.tokensOut ?? 0, cost: child?.cost ?? 0 });
  }
  return nodes;
}

export function formatSubagentTree(loaded: LoadedTask, nodes: SubagentNode[], formatCost: (cost: number) => string): string {
  const lines: string[] = [];
  if (loaded.meta.parent !== undefined) lines.push(`Subagent ${loaded.meta.parent.subagentId} of task ${loaded.meta.parent.taskId}`);
  if (nodes.length > 0) {
    lines.push("Subagents:");
    nodes.forEach((node, index) => {
      const branch = index === nodes.length - 1 ? "└─" : "├─";
      lines.push(`  ${branch} ${node.subagentId} (${node.agent}) ${node.taskId}: ${node.status}; ${node.tokensIn} tokens in, ${node.tokensOut} out; ${formatCost(node.cost)}`);
    });
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
