import type { McpGate, McpStatus } from "./contracts/seams.js";

/** The pending servers, each with the gist of its error where it has one. */
function describePending(status: McpStatus): string {
  return status.pending.map((name) => (status.errors?.[name] === undefined ? name : `${name} (${status.errors[name]})`)).join("; ");
}

/**
 * The Task's view of its MCP servers. SPEC T15: before each request, waits (at most `timeoutMs`)
 * for them and says which are not ready, with why; said again only when that changes, so a
 * server that stays down for a long task is one warning, not one per request.
 */
export class McpWait {
  private lastSaid = "";

  constructor(
    private readonly gate: McpGate,
    private readonly warn: (text: string) => void,
  ) {}

  async beforeRequest(timeoutMs: number, signal: AbortSignal): Promise<void> {
    const status = await this.gate.waitForServers(timeoutMs, signal);
    const pending = describePending(status);
    if (pending !== "" && pending !== this.lastSaid) this.warn(`MCP servers not ready yet, going on without them: ${pending}`);
    this.lastSaid = pending;
  }

  promptSection(protocol: "xml" | "native"): string {
    return this.gate.promptSection(protocol);
  }
}
