/**
 * A task or message typed with MCP references (`/mcp__server__prompt args`,
 * `@server:uri`) is expanded once the servers are up, before the model sees it:
 * headless, in the terminal UI and over ACP alike.
 */
import type { McpReferenceSource } from "../mcp/user-references.js";

const serverWaitMs = 10_000;

/** Whether `text` may hold an MCP reference (cheap: the MCP code is loaded only then). */
export function mayReferenceMcp(text: string): boolean {
  return /^\s*\/mcp__/.test(text) || /(^|\s)@[A-Za-z0-9_-]+:[A-Za-z][\w+.-]*:/.test(text);
}

export async function expandMcpStart(
  text: string,
  options: { references: McpReferenceSource | undefined; waitForServers: (timeoutMs: number, signal: AbortSignal) => Promise<unknown>; notice: (text: string) => void; signal: AbortSignal },
): Promise<string> {
  if (options.references === undefined || !mayReferenceMcp(text)) return text;
  await options.waitForServers(serverWaitMs, options.signal);
  const { expandMcpReferences } = await import("../mcp/user-references.js");
  const expanded = await expandMcpReferences(text, options.references, options.signal);
  for (const notice of expanded.notices) options.notice(notice);
  return expanded.text;
}
