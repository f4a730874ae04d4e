/**
 * MCP servers kept by a front end across its tasks (the terminal UI, an ACP
 * session): the first task that has servers starts them, later tasks use the
 * same ones while the configuration stays the same, and the front end lists
 * their prompts and resources for completion between tasks. Nothing starts
 * before a task does, so no server runs that a task would not have started
 * (a project's servers only in a trusted folder, docs/mcp.md).
 */
import type { McpHub } from "../mcp/hub.js";
import type { McpReferenceSource } from "../mcp/user-references.js";
import type { McpNotificationMeta } from "../task/contracts/message-meta.js";
import type { McpStartOptions, McpWiring } from "./mcp-wiring.js";
import { mcpWiringOf, noMcpWiring, sessionMcpServers, startMcpHub } from "./mcp-wiring.js";

export class KeptMcpServers {
  #current: { key: string; hub: McpHub; stopWatching: () => void } | undefined;
  /** Where the servers' events go: the task that uses them now. */
  #notice: (text: string, meta?: McpNotificationMeta) => void = () => undefined;
  readonly #listeners = new Set<() => void>();
  #closed = false;

  /** The servers for a task: the running ones when its configuration is theirs, else the old ones stop and new ones start. */
  async use(options: McpStartOptions): Promise<McpWiring> {
    if (this.#closed) throw new Error("the MCP servers were closed with the session that kept them");
    this.#notice = options.notice;
    const servers = await sessionMcpServers(options);
    const key = JSON.stringify({ sandbox: options.settings.sandbox, servers });
    if (this.#current?.key !== key) {
      await this.#stop();
      if (servers.length > 0) {
        const hub = await startMcpHub(servers, { ...options, notice: (text, meta) => this.#notice(text, meta) });
        this.#current = { key, hub, stopWatching: hub.onChange(() => this.#changed()) };
      }
      this.#changed();
    }
    // Closing the task's wiring leaves the servers running; their events no longer go to the ended task.
    const release = async (): Promise<void> => {
      if (this.#notice === options.notice) this.#notice = () => undefined;
    };
    return this.#current === undefined ? noMcpWiring : mcpWiringOf(this.#current.hub, options.settings, release);
  }

  /** The running servers' prompts and resources; undefined before a task started any. */
  references(): McpReferenceSource | undefined {
    return this.#current?.hub;
  }

  /** Calls `listener` when the servers or their lists change (a list-changed notification, a server connecting); returns how to stop. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  async #stop(): Promise<void> {
    const current = this.#current;
    this.#current = undefined;
    if (current === undefined) return;
    current.stopWatching();
    await current.hub.close();
  }

  /** Stops the servers (the front end is done). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#stop();
  }
}
