/**
 * A task or message typed with MCP references (`/mcp__server__prompt args`,
 * `@server:uri`) is expanded once the servers are up, before the model sees it:
 * the first message, a message sent while the task works and an answer to the
 * task's question alike, headless, in the terminal UI, over ACP and the SDK.
 */
import type { McpReferenceSource } from "../mcp/user-references.js";
import type { Host } from "../task/contracts/host.js";
import type { McpGate } from "../task/contracts/seams.js";

const serverWaitMs = 10_000;

/** Whether `text` may hold an MCP reference (cheap: the MCP code is loaded only then). */
export function mayReferenceMcp(text: string): boolean {
  return /^\s*\/mcp__/.test(text) || /(^|\s)@[A-Za-z0-9_-]+:[A-Za-z][\w+.-]*:/.test(text);
}

/** The text with its MCP references expanded; what could not be used is said with `notice` (and the text goes as typed). */
export async function expandMcpMessage(text: string, mcp: { references: McpReferenceSource | undefined; gate: McpGate }, notice: (text: string) => void): Promise<string> {
  if (mcp.references === undefined || !mayReferenceMcp(text)) return text;
  const signal = new AbortController().signal;
  await mcp.gate.waitForServers(serverWaitMs, signal);
  const { expandMcpReferences } = await import("../mcp/user-references.js");
  const expanded = await expandMcpReferences(text, mcp.references, signal);
  for (const line of expanded.notices) notice(line);
  return expanded.text;
}

/** The user's answers to the task's questions (feedback on a result, a reply to a question) with their MCP references expanded. */
export function withExpandedAnswers(host: Host, expand: (text: string) => Promise<string>): Host {
  return {
    onMessage: (message) => host.onMessage(message),
    answerAsk: async (message, signal) => {
      const answer = await host.answerAsk(message, signal);
      if (answer.text === undefined || !mayReferenceMcp(answer.text)) return answer;
      return { ...answer, text: await expand(answer.text) };
    },
  };
}
