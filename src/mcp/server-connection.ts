/**
 * One configured MCP server: connects in the background, keeps its tool and
 * resource lists fresh, and reconnects with backoff when the server goes away.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { ElicitResult, Prompt, Resource, ResourceTemplate, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { McpElicitation } from "../tools/mcp-port.js";
import type { McpServerConfig } from "./config.js";
import type { McpHubEvent, ReconnectSettings } from "./events.js";
import { reconnectDelay } from "./events.js";
import { isSignInRequired, remoteAuthProvider } from "./oauth/connection-auth.js";
import { createTransport } from "./transports.js";

export interface ServerSession {
  client: Client;
  tools: Tool[];
  resources: Resource[];
  templates: ResourceTemplate[];
  /** The server's prompts (offered to the user as `/mcp__server__prompt`). */
  prompts: Prompt[];
  instructions: string | undefined;
}

type ListKind = "tools" | "resources" | "prompts";

export type ConnectionState =
  | { kind: "disabled" }
  | { kind: "idle" }
  | { kind: "connecting" }
  | { kind: "connected"; session: ServerSession }
  /** The last attempt failed or the server went away; a retry is scheduled (none when the user must sign in first). */
  | { kind: "waiting"; error: string; retryAt: number; signInRequired?: true }
  | { kind: "closed" };

export interface ConnectionOptions {
  config: McpServerConfig;
  clientName: string;
  clientVersion: string;
  reconnect: ReconnectSettings;
  connectTimeoutMs: number;
  /** Remote servers are pinged this often to notice that they went away; 0 turns it off. */
  healthCheckIntervalMs: number;
  /** Where OAuth sign-ins are stored (`cairn mcp login`); without it remote servers get no tokens. */
  dataDir?: string;
  emit(event: McpHubEvent): void;
  /** Answers the server's requests for input (elicitation); the hub routes them to the call they came with. */
  elicit(request: McpElicitation): Promise<ElicitResult>;
  /** Called after every state or list change. */
  changed(): void;
}

const stderrTailLines = 12;
const stdioCloseGraceMs = 300;

function describeError(error: unknown): string {
  if (error instanceof McpError) return error.message;
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && /spawn/.test(error.message)) return `the command was not found (${error.message})`;
    const cause = (error as Error & { cause?: unknown }).cause;
    if (cause instanceof Error && cause.message !== error.message) return `${error.message}: ${cause.message}`;
    return error.message;
  }
  return String(error);
}

async function listAll<T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  // A misbehaving server could page forever; 50 pages is far beyond real ones.
  for (let page = 0; page < 50; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    if (result.nextCursor === undefined || result.nextCursor === "") break;
    cursor = result.nextCursor;
  }
  return items;
}

export class ServerConnection {
  state: ConnectionState;
  /** The first connection attempt has finished (success or failure). */
  firstAttemptSettled = false;
  private generation = 0;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private healthTimer: NodeJS.Timeout | undefined;
  private healthCheckRunning = false;
  private readonly stderrTail: string[] = [];
  private currentPid: (() => number | undefined) | undefined;
  /** The client of the latest attempt, even while it is still connecting (close() must stop it). */
  private activeClient: Client | undefined;
  /** List changes announced while the connection was still being set up. */
  private readonly staleWhileConnecting = new Set<ListKind>();
  private refreshLists: ((what: ListKind) => Promise<void>) | undefined;

  constructor(private readonly options: ConnectionOptions) {
    this.state = options.config.disabled ? { kind: "disabled" } : { kind: "idle" };
  }

  get name(): string {
    return this.options.config.name;
  }

  get config(): McpServerConfig {
    return this.options.config;
  }

  /** Why the last attempt failed, in a few words after the server's name (the whole error went out as its event). */
  get failure(): string | undefined {
    if (this.state.kind !== "waiting") return undefined;
    return this.state.signInRequired ? "needs sign-in" : this.state.error.split("\n", 1)[0]!.replace(/^cannot connect to MCP server "[^"]*": /, "");
  }

  /** The stdio server's process id while it runs (tests kill it to simulate a crash). */
  get pid(): number | undefined {
    return this.state.kind === "connected" ? this.currentPid?.() : undefined;
  }

  start(): void {
    if (this.state.kind !== "idle") return;
    void this.attempt();
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    this.options.changed();
  }

  private async attempt(): Promise<void> {
    const generation = ++this.generation;
    this.setState({ kind: "connecting" });
    // Form elicitation: a server may ask the user for input while a call runs.
    const client = new Client({ name: this.options.clientName, version: this.options.clientVersion }, { capabilities: { elicitation: { form: {} } } });
    // Only this attempt's output explains this attempt's failure.
    this.stderrTail.length = 0;
    const authProvider = await remoteAuthProvider(this.options.config, this.options.dataDir);
    if (generation !== this.generation || this.isClosed()) return;
    const created = createTransport(
      this.options.config.transport,
      (line) => {
        this.stderrTail.push(line);
        if (this.stderrTail.length > stderrTailLines) this.stderrTail.shift();
        this.options.emit({ type: "server_stderr", server: this.name, line });
      },
      authProvider,
    );
    this.currentPid = () => created.pid();
    this.activeClient = client;
    client.onclose = () => this.lost(generation, "the connection closed");
    // Transport errors are often transient; for a remote server a ping decides whether it is gone.
    client.onerror = () => {
      if (this.isRemote() && generation === this.generation) void this.checkHealth(generation);
    };
    this.staleWhileConnecting.clear();
    this.refreshLists = this.installNotificationHandlers(client, generation);
    try {
      await client.connect(created.transport, { timeout: this.options.connectTimeoutMs });
      const session = await this.fetchSession(client);
      if (generation !== this.generation || this.state.kind === "closed") {
        await client.close().catch(() => {});
        return;
      }
      this.failures = 0;
      this.setState({ kind: "connected", session });
      this.options.emit({
        type: "server_connected",
        server: this.name,
        tools: session.tools.length,
        resources: session.resources.length,
      });
      this.startHealthChecks(generation);
      for (const what of this.staleWhileConnecting) void this.refreshLists?.(what);
      this.staleWhileConnecting.clear();
    } catch (error) {
      if (generation !== this.generation || this.state.kind === "closed") return;
      this.generation++;
      await client.close().catch(() => {});
      if (this.isClosed()) return;
      if (isSignInRequired(error)) {
        // Retrying cannot help until the user signs in: say so once, with the command.
        const message = `MCP server "${this.name}" needs sign-in: run \`cairn mcp login ${this.name}\``;
        this.setState({ kind: "waiting", error: message, retryAt: Number.POSITIVE_INFINITY, signInRequired: true });
        this.options.emit({ type: "server_error", server: this.name, message });
        return;
      }
      const tail = this.stderrTail.length > 0 ? `\nLast output of the server:\n${this.stderrTail.join("\n")}` : "";
      const message = `cannot connect to MCP server "${this.name}": ${describeError(error)}${tail}`;
      this.failures++;
      const retryInMs = this.scheduleRetry();
      this.setState({ kind: "waiting", error: message, retryAt: Date.now() + retryInMs });
      this.options.emit({ type: "server_error", server: this.name, message, retryInMs });
    } finally {
      if (!this.firstAttemptSettled) {
        this.firstAttemptSettled = true;
        this.options.changed();
      }
    }
  }

  private async fetchSession(client: Client): Promise<ServerSession> {
    const capabilities = client.getServerCapabilities() ?? {};
    const timeout = this.options.connectTimeoutMs;
    const tools = capabilities.tools
      ? await listAll(async (cursor) => {
          const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
          return { items: result.tools, nextCursor: result.nextCursor };
        })
      : [];
    const [resources, templates] = capabilities.resources
      ? await Promise.all([
          listAll(async (cursor) => {
            const result = await client.listResources(cursor === undefined ? {} : { cursor }, { timeout });
            return { items: result.resources, nextCursor: result.nextCursor };
          }),
          listAll(async (cursor) => {
            const result = await client.listResourceTemplates(cursor === undefined ? {} : { cursor }, { timeout });
            return { items: result.resourceTemplates, nextCursor: result.nextCursor };
          }),
        ])
      : [[], []];
    const prompts = capabilities.prompts
      ? await listAll(async (cursor) => {
          const result = await client.listPrompts(cursor === undefined ? {} : { cursor }, { timeout });
          return { items: result.prompts, nextCursor: result.nextCursor };
        })
      : [];
    return { client, tools, resources, templates, prompts, instructions: client.getInstructions() };
  }

  private installNotificationHandlers(client: Client, generation: number): (what: ListKind) => Promise<void> {
    const refresh = async (what: ListKind): Promise<void> => {
      if (generation !== this.generation) return;
      if (this.state.kind === "connecting") {
        // The lists being fetched for the connection may predate this change.
        this.staleWhileConnecting.add(what);
        return;
      }
      if (this.state.kind !== "connected") return;
      try {
        const fresh = await this.fetchSession(client);
        if (generation !== this.generation || this.state.kind !== "connected") return;
        const session = this.state.session;
        if (what === "tools") session.tools = fresh.tools;
        else if (what === "prompts") session.prompts = fresh.prompts;
        else {
          session.resources = fresh.resources;
          session.templates = fresh.templates;
        }
        this.options.changed();
        if (what === "tools") this.options.emit({ type: "tools_changed", server: this.name, tools: fresh.tools.length });
      } catch (error) {
        this.options.emit({ type: "server_error", server: this.name, message: `cannot refresh ${what}: ${describeError(error)}` });
      }
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => refresh("tools"));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => refresh("resources"));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => refresh("prompts"));
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params;
      if (params.mode === "url" || !("requestedSchema" in params)) return { action: "decline" };
      return this.options.elicit({ server: this.name, message: params.message, requestedSchema: params.requestedSchema });
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      const { level, logger, data } = notification.params;
      const message = typeof data === "string" ? data : JSON.stringify(data);
      this.options.emit({ type: "server_log", server: this.name, level, message, ...(logger === undefined ? {} : { logger }) });
    });
    client.fallbackNotificationHandler = async (notification) => {
      this.options.emit({
        type: "notification",
        server: this.name,
        method: notification.method,
        ...(notification.params === undefined ? {} : { params: notification.params }),
      });
    };
    return refresh;
  }

  private isClosed(): boolean {
    return this.state.kind === "closed";
  }

  private isRemote(): boolean {
    return this.options.config.transport.type !== "stdio";
  }

  /** The server went away after it was connected: drop its tools and retry later. */
  private lost(generation: number, reason: string): void {
    if (generation !== this.generation || this.state.kind !== "connected") return;
    const client = this.state.session.client;
    this.generation++;
    this.stopHealthChecks();
    this.failures = 1;
    const retryInMs = this.scheduleRetry();
    this.setState({ kind: "waiting", error: `MCP server "${this.name}" disconnected: ${reason}`, retryAt: Date.now() + retryInMs });
    this.options.emit({ type: "server_disconnected", server: this.name, reason, retryInMs });
    void client.close().catch(() => {});
  }

  private scheduleRetry(): number {
    const delay = reconnectDelay(this.options.reconnect, this.failures);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.state.kind === "waiting") void this.attempt();
    }, delay);
    this.retryTimer.unref();
    return delay;
  }

  private startHealthChecks(generation: number): void {
    if (!this.isRemote() || this.options.healthCheckIntervalMs <= 0) return;
    this.stopHealthChecks();
    this.healthTimer = setInterval(() => void this.checkHealth(generation), this.options.healthCheckIntervalMs);
    this.healthTimer.unref();
  }

  private stopHealthChecks(): void {
    clearInterval(this.healthTimer);
    this.healthTimer = undefined;
  }

  /** A remote server has no process to watch, so a failed ping is how it is seen to be gone. */
  async checkHealth(generation: number = this.generation): Promise<void> {
    if (this.healthCheckRunning || generation !== this.generation || this.state.kind !== "connected") return;
    this.healthCheckRunning = true;
    try {
      await this.state.session.client.ping({ timeout: Math.max(1_000, Math.min(this.options.healthCheckIntervalMs, 10_000)) });
    } catch (error) {
      this.lost(generation, `it stopped answering (${describeError(error)})`);
    } finally {
      this.healthCheckRunning = false;
    }
  }

  async close(): Promise<void> {
    this.generation++;
    this.stopHealthChecks();
    clearTimeout(this.retryTimer);
    const client = this.activeClient;
    this.activeClient = undefined;
    this.setState({ kind: "closed" });
    if (client === undefined) return;
    const pid = this.currentPid?.();
    // The SDK waits 2 s for a server to exit after its input closes; most servers
    // never do, so a short grace then SIGTERM keeps shutdown quick.
    const terminate = setTimeout(() => {
      try {
        if (pid !== undefined) process.kill(pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    }, stdioCloseGraceMs);
    await client.close().catch(() => {});
    clearTimeout(terminate);
  }
}
