/**
 * A task or message typed with MCP references (`/mcp__server__prompt args`,
 * `@server:uri`) is expanded once the servers are up, before the model sees it:
 * headless, in the terminal UI and over ACP alike.
 */
import type { McpReferenceSource } from "../mcp/user-references.js";
import type { McpGate } from "../task/contracts/seams.js";

const serverWaitMs = 10_000;

/** Whether `text` may hold an MCP reference (cheap: the MCP code is loaded only then). */
export function mayReferenceMcp(text: string): boolean {
  return /^\s*\/mcp__/.test(text) || /(^|\s)@[A-Za-z0-9_-]+:[A-Za-z][\w+.-]*:/.test(text);
}

export async function expandMcpStart(text: string | undefined, mcp: { references: McpReferenceSource | undefined; gate: McpGate }, notice: (text: string) => void): Promise<string | undefined> {
  if (text === undefined || mcp.references === undefined || !mayReferenceMcp(text)) return text;
  const signal = new AbortController().signal;
  await mcp.gate.waitForServers(serverWaitMs, signal);
  const { expandMcpReferences } = await import("../mcp/user-references.js");
  const expanded = await expandMcpReferences(text, mcp.references, signal);
  for (const line of expanded.notices) notice(line);
  return expanded.text;
}
