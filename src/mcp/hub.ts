/**
 * The MCP hub: every configured server, connected in the background when a task
 * starts (SPEC T15), seen by tools through `McpPort` and by the Task through `McpGate`.
 */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { ToolSchema } from "../llm/types.js";
import type { McpStatus, McpGate } from "../task/contracts/seams.js";
import type { McpCallResult, McpElicitation, McpElicitationAnswer, McpPort, McpToolInfo } from "../tools/mcp-port.js";
import type { McpServerConfig } from "./config.js";
import type { McpHubEvent, ReconnectSettings } from "./events.js";
import { defaultReconnectSettings } from "./events.js";
import type { McpToolReference } from "./native-names.js";
import { nativeToolName, parseNativeToolName } from "./native-names.js";
import { CallClock } from "./call-clock.js";
import { formatProgress, requestSignal, sdkCallLimitMs } from "./request-signal.js";
import { isSignInRequired } from "./oauth/connection-auth.js";
import { buildMcpPromptSection } from "./prompt-section.js";
import { promptText } from "./user-references.js";
import type { McpPromptInfo, McpReferenceSource, McpResourceInfo } from "./user-references.js";
import type { PromptServer } from "./prompt-section.js";
import type { ResultLimits } from "./results.js";
import { convertResourceResult, convertToolResult, defaultResultLimits } from "./results.js";
import { ServerConnection } from "./server-connection.js";
import type { ServerSession } from "./server-connection.js";
import type { ToolDescriptionReview } from "./trust-store.js";
import { McpTrustStore } from "./trust-store.js";

export interface McpHubOptions {
  servers: McpServerConfig[];
  onEvent?: (event: McpHubEvent) => void;
  clientName?: string;
  clientVersion?: string;
  reconnect?: Partial<ReconnectSettings>;
  /** Time allowed for the initialize handshake and the first listings. */
  connectTimeoutMs?: number;
  /** Remote servers are pinged this often to notice that they went away; 0 turns it off. */
  healthCheckIntervalMs?: number;
  resultLimits?: Partial<ResultLimits>;
  /** Where `mcp-approved.json` lives; without it the trust review reports nothing. */
  dataDir?: string;
}

/** A call that could not be made or did not finish; the message says why and what to do. */
export class McpCallError extends Error {
  override readonly name = "McpCallError";
}

export interface McpServerState {
  name: string;
  status: "disabled" | "connecting" | "connected" | "waiting" | "closed";
  error?: string;
  /** The server refused cairn for want of an OAuth sign-in (`cairn mcp login NAME`). */
  signInRequired?: true;
  tools: McpToolInfo[];
}

function describeTool(server: McpServerConfig, tool: ServerSession["tools"][number]): McpToolInfo {
  return {
    server: server.name,
    name: tool.name,
    description: tool.description ?? "",
    inputSchema: tool.inputSchema,
    autoApprove: server.autoApprove.includes(tool.name),
  };
}

export class McpHub implements McpPort, McpGate, McpReferenceSource {
  private readonly connections: ServerConnection[];
  private readonly listeners = new Set<() => void>();
  private readonly resultLimits: ResultLimits;
  private readonly trustStore: McpTrustStore | undefined;
  private readonly emit: (event: McpHubEvent) => void;
  /** The calls running now that can answer their server's requests for input, latest last. */
  private readonly elicitors: Array<{ server: string; answer: (request: McpElicitation) => Promise<McpElicitationAnswer> }> = [];

  constructor(options: McpHubOptions) {
    this.emit = (event) => {
      try {
        options.onEvent?.(event);
      } catch {
        // A failing listener must not break the connection that reported the event.
      }
    };
    this.resultLimits = { ...defaultResultLimits, ...options.resultLimits };
    this.trustStore = options.dataDir === undefined ? undefined : new McpTrustStore({ dataDir: options.dataDir });
    const reconnect = { ...defaultReconnectSettings, ...options.reconnect };
    this.connections = options.servers.map(
      (config) =>
        new ServerConnection({
          config,
          clientName: options.clientName ?? "cairn",
          clientVersion: options.clientVersion ?? "0.0.0",
          reconnect,
          connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
          healthCheckIntervalMs: options.healthCheckIntervalMs ?? 15_000,
          ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
          emit: this.emit,
          elicit: (request) => this.elicit(request),
          changed: () => {
            for (const listener of [...this.listeners]) listener();
          },
        }),
    );
  }

  /**
   * A server asks for input: the latest running call to that server that can ask
   * the user answers; with none (a request outside a call, or headless without
   * answers) it is declined, and the user is told.
   */
  private async elicit(request: McpElicitation): Promise<McpElicitationAnswer> {
    const elicitor = this.elicitors.findLast((candidate) => candidate.server === request.server);
    if (elicitor === undefined) {
      this.emit({ type: "elicitation_declined", server: request.server, reason: "it came while none of its tool calls was running" });
      return { action: "decline" };
    }
    return elicitor.answer(request);
  }

  /** Calls `listener` whenever a server connects, goes away or changes its tools, prompts or resources; returns how to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts connecting every enabled server and returns at once. */
  start(): void {
    for (const connection of this.connections) connection.start();
  }

  private enabled(): ServerConnection[] {
    return this.connections.filter((connection) => connection.state.kind !== "disabled");
  }

  private connection(server: string): ServerConnection {
    const connection = this.connections.find((candidate) => candidate.name === server);
    if (connection === undefined) {
      const known = this.enabled().map((candidate) => candidate.name);
      throw new McpCallError(`There is no MCP server named "${server}". ${known.length === 0 ? "No server is configured." : `Configured servers: ${known.join(", ")}.`}`);
    }
    return connection;
  }

  private session(server: string): { connection: ServerConnection; session: ServerSession } {
    const connection = this.connection(server);
    const state = connection.state;
    if (state.kind === "connected") return { connection, session: state.session };
    const reason = state.kind === "waiting" ? ` (${state.error})` : state.kind === "disabled" ? " (it is disabled in the configuration)" : "";
    throw new McpCallError(`MCP server "${server}" is not connected${reason}. Try again later or use another way.`);
  }

  private status(): McpStatus {
    const ready: string[] = [];
    const pending: string[] = [];
    const errors: Record<string, string> = {};
    for (const connection of this.enabled()) {
      (connection.state.kind === "connected" ? ready : pending).push(connection.name);
      if (connection.failure !== undefined) errors[connection.name] = connection.failure;
    }
    return { ready, pending, ...(Object.keys(errors).length > 0 ? { errors } : {}) };
  }

  /**
   * SPEC T15: resolves when every enabled server is connected or has failed its first
   * attempt (no use waiting for a command that does not exist), or after `timeoutMs`.
   * `pending` lists the servers that are not ready. Starts the hub if `start()` was not called.
   */
  async waitForServers(timeoutMs: number, signal: AbortSignal): Promise<McpStatus> {
    this.start();
    const settled = (): boolean => this.enabled().every((connection) => connection.state.kind === "connected" || connection.firstAttemptSettled);
    if (settled() || signal.aborted) return this.status();
    await new Promise<void>((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.listeners.delete(check);
        signal.removeEventListener("abort", finish);
        resolve();
      };
      const check = (): void => {
        if (settled()) finish();
      };
      const timer = setTimeout(finish, timeoutMs);
      this.listeners.add(check);
      signal.addEventListener("abort", finish, { once: true });
    });
    return this.status();
  }

  promptSection(protocol: "xml" | "native"): string {
    const connected: PromptServer[] = [];
    const unavailable: string[] = [];
    for (const connection of this.enabled()) {
      const state = connection.state;
      if (state.kind === "connected") connected.push({ name: connection.name, ...state.session });
      else unavailable.push(connection.name);
    }
    return buildMcpPromptSection({ protocol, connected, unavailable });
  }

  listTools(): McpToolInfo[] {
    return this.serverStates().flatMap((state) => state.tools);
  }

  getTool(server: string, tool: string): McpToolInfo | undefined {
    return this.listTools().find((candidate) => candidate.server === server && candidate.name === tool);
  }

  serverStatus(): Array<{ name: string; connected: boolean; error?: string }> {
    return this.enabled().map((connection) => {
      const state = connection.state;
      return { name: connection.name, connected: state.kind === "connected", ...(state.kind === "waiting" ? { error: state.error } : {}) };
    });
  }

  /** Every configured server (disabled ones too) with its state and current tools. */
  serverStates(): McpServerState[] {
    return this.connections.map((connection) => {
      const state = connection.state;
      const tools = state.kind === "connected" ? state.session.tools.map((tool) => describeTool(connection.config, tool)) : [];
      return {
        name: connection.name,
        status: state.kind === "idle" ? "connecting" : state.kind,
        tools,
        ...(state.kind === "waiting" ? { error: state.error } : {}),
        ...(state.kind === "waiting" && state.signInRequired === true ? { signInRequired: true as const } : {}),
      };
    });
  }

  private connectedSessions(): Array<{ name: string; session: ServerSession }> {
    return this.enabled().flatMap((connection) => (connection.state.kind === "connected" ? [{ name: connection.name, session: connection.state.session }] : []));
  }

  connectedServers(): string[] {
    return this.connectedSessions().map((entry) => entry.name);
  }

  /** The connected servers' prompts, as the user's `/mcp__server__prompt` commands. */
  listPrompts(): McpPromptInfo[] {
    return this.connectedSessions().flatMap(({ name, session }) =>
      session.prompts.map((prompt) => ({
        server: name,
        name: prompt.name,
        description: prompt.description ?? prompt.title ?? "",
        arguments: (prompt.arguments ?? []).map((argument) => ({ name: argument.name, required: argument.required === true, ...(argument.description === undefined ? {} : { description: argument.description }) })),
      })),
    );
  }

  /** The connected servers' resources, as the user's `@server:uri` mentions. */
  listResources(): McpResourceInfo[] {
    return this.connectedSessions().flatMap(({ name, session }) =>
      session.resources.map((resource) => ({ server: name, uri: resource.uri, name: resource.name, ...(resource.description === undefined ? {} : { description: resource.description }) })),
    );
  }

  async getPrompt(options: { server: string; name: string; arguments: Record<string, string>; signal: AbortSignal }): Promise<string> {
    const { connection, session } = this.session(options.server);
    const request = requestSignal(options.signal);
    try {
      return promptText(await session.client.getPrompt({ name: options.name, arguments: options.arguments }, { signal: request.signal, timeout: connection.config.timeoutMs }));
    } catch (error) {
      throw this.callFailure(error, { connection, what: `prompt "${options.name}"`, timeoutMs: connection.config.timeoutMs, signal: options.signal });
    } finally {
      request.dispose();
    }
  }

  async readResourceText(options: { server: string; uri: string; signal: AbortSignal }): Promise<string> {
    const result = await this.readResource(options);
    return result.fullText ?? result.content.map((part) => (part.type === "text" ? part.text : "(an image)")).join("\n");
  }

  /** The process id of a connected stdio server. */
  serverPid(server: string): number | undefined {
    return this.connections.find((connection) => connection.name === server)?.pid;
  }

  /** With the native protocol every MCP tool is also a native tool. */
  nativeToolSchemas(): ToolSchema[] {
    return this.listTools().map((tool) => ({
      name: nativeToolName(tool.server, tool.name),
      description: `${tool.description} (MCP server "${tool.server}", tool "${tool.name}")`.trim(),
      inputSchema: { type: "object", ...tool.inputSchema },
    }));
  }

  /** The server and tool behind a native tool name, or undefined when it is not a current MCP tool. */
  resolveNativeToolName(name: string): McpToolReference | undefined {
    const known = this.listTools().map((tool) => ({ server: tool.server, tool: tool.name }));
    return parseNativeToolName(name, known);
  }

  /**
   * Calls a tool. Throws `McpCallError` when the call cannot be made or times out
   * (the request is then cancelled on the server); a tool's own failure comes back
   * as a result with `isError`.
   */
  async callTool(options: Parameters<McpPort["callTool"]>[0]): Promise<McpCallResult> {
    const { connection, session } = this.session(options.server);
    if (!session.tools.some((tool) => tool.name === options.tool)) {
      throw new McpCallError(`MCP server "${options.server}" has no tool "${options.tool}". Its tools: ${session.tools.map((tool) => tool.name).join(", ") || "(none)"}.`);
    }
    const timeoutMs = connection.config.timeoutMs;
    const request = requestSignal(options.signal);
    const clock = new CallClock(timeoutMs, () => request.abort());
    const onElicit = options.onElicit;
    const elicitor = onElicit === undefined ? undefined : { server: options.server, answer: (asked: McpElicitation) => clock.paused(() => onElicit(asked)) };
    if (elicitor !== undefined) this.elicitors.push(elicitor);
    try {
      const result = await session.client.callTool({ name: options.tool, arguments: options.arguments }, undefined, {
        signal: request.signal,
        timeout: sdkCallLimitMs,
        onprogress: (progress) => {
          this.emit({
            type: "progress",
            server: options.server,
            tool: options.tool,
            progress: progress.progress,
            ...(progress.total === undefined ? {} : { total: progress.total }),
            ...(progress.message === undefined ? {} : { message: progress.message }),
          });
          options.onProgress?.(formatProgress(progress));
        },
      });
      return convertToolResult(result, this.resultLimits);
    } catch (error) {
      const cause = clock.expired ? new McpError(ErrorCode.RequestTimeout, "Request timed out") : error;
      throw this.callFailure(cause, { connection, what: `tool "${options.tool}"`, timeoutMs, signal: options.signal });
    } finally {
      clock.stop();
      request.dispose();
      if (elicitor !== undefined) this.elicitors.splice(this.elicitors.indexOf(elicitor), 1);
    }
  }

  async readResource(options: { server: string; uri: string; signal: AbortSignal }): Promise<McpCallResult> {
    const { connection, session } = this.session(options.server);
    const timeoutMs = connection.config.timeoutMs;
    const request = requestSignal(options.signal);
    try {
      const result = await session.client.readResource({ uri: options.uri }, { signal: request.signal, timeout: timeoutMs });
      return convertResourceResult(result, this.resultLimits);
    } catch (error) {
      throw this.callFailure(error, { connection, what: `resource "${options.uri}"`, timeoutMs, signal: options.signal });
    } finally {
      request.dispose();
    }
  }

  private callFailure(error: unknown, context: { connection: ServerConnection; what: string; timeoutMs: number; signal: AbortSignal }): Error {
    const server = context.connection.name;
    if (context.signal.aborted) return new McpCallError(`The call of ${context.what} on MCP server "${server}" was cancelled.`);
    if (isSignInRequired(error)) {
      return new McpCallError(`MCP server "${server}" refused the call of ${context.what}: its sign-in expired or was revoked. Run \`cairn mcp login ${server}\` to sign in again.`);
    }
    if (error instanceof McpError && error.code === (ErrorCode.RequestTimeout as number)) {
      return new McpCallError(
        `The call of ${context.what} on MCP server "${server}" took longer than ${context.timeoutMs / 1000} s and was cancelled. ` + `Raise "timeout" (seconds) for this server in mcp.json if it needs longer.`,
      );
    }
    if (error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number)) {
      return new McpCallError(`MCP server "${server}" went away during the call of ${context.what}; it will be reconnected, try again later.`);
    }
    if (error instanceof McpError) return new McpCallError(`MCP server "${server}" answered with an error for ${context.what}: ${error.message}`);
    // Not an answer from the server: the connection itself may be gone.
    void context.connection.checkHealth();
    return new McpCallError(`The call of ${context.what} on MCP server "${server}" failed: ${(error as Error).message ?? String(error)}`);
  }

  /**
   * Connected servers whose tools the user has not approved yet (show them all) or
   * whose approved descriptions changed since (warn). Empty without a data folder.
   */
  async reviewToolDescriptions(): Promise<ToolDescriptionReview[]> {
    if (this.trustStore === undefined) return [];
    const reviews: ToolDescriptionReview[] = [];
    for (const state of this.serverStates()) {
      if (state.status !== "connected") continue;
      const review = await this.trustStore.review(state.name, state.tools);
      if (review !== undefined) reviews.push(review);
    }
    return reviews;
  }

  /** Records the server's current tools as approved by the user. */
  async approve(server: string): Promise<void> {
    if (this.trustStore === undefined) throw new Error("MCP hub has no data folder to record approvals in");
    const state = this.serverStates().find((candidate) => candidate.name === server);
    if (state === undefined || state.status !== "connected") throw new McpCallError(`MCP server "${server}" is not connected`);
    await this.trustStore.approve(server, state.tools);
  }

  /** Stops everything: pending retries, health checks, connections and stdio server processes. */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
    this.listeners.clear();
  }
}
