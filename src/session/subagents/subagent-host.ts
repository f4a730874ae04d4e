/**
 * How a subagent meets the user (issue #17): the parent's host as the child
 * sees it (its messages tagged with its id, its asks naming it) and the
 * system prompt section that tells the child what it is.
 */
import type { Host } from "../../task/contracts/host.js";
import type { UiMessage } from "../../task/contracts/messages.js";
import type { AgentType } from "./agent-types.js";

/** The parent's host as a child sees it: ids kept apart, every message tagged, asks naming the child. */
export function childHost(parent: Host, subagentId: string, observe: (message: UiMessage) => void): Host {
  const tag = <T extends UiMessage>(message: T): T => ({ ...message, id: `${subagentId}:${message.id}`, subagentId });
  return {
    onMessage: (message) => {
      observe(message);
      parent.onMessage(message.type === "ask" ? { ...tag(message), text: askText(subagentId, message.text) } : tag(message));
    },
    answerAsk: (message, signal) => parent.answerAsk({ ...tag(message), text: askText(subagentId, message.text) }, signal),
  };
}

function askText(subagentId: string, text: string): string {
  return `[subagent ${subagentId}] ${text}`;
}

export function subagentSection(type: AgentType, subagentId: string): string {
  const rules = [
    `You are the subagent ${subagentId} (agent type ${type.name}) of another cairn task. You see only the prompt you were given, not the parent's conversation.`,
    "Work on that prompt alone and end with attempt_completion: its result is the report the parent reads, so make it complete and concise (what you found or did, with file paths).",
    ...(type.readOnly ? ["You are read-only: you do not change files, and you run only commands that read."] : []),
  ];
  return `# SUBAGENT\n\n${rules.join("\n")}${type.instructions ? `\n\n${type.instructions}` : ""}`;
}
