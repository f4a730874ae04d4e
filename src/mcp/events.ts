/** What the MCP hub tells the user about its servers (the UI decides how to show it). */
export type McpHubEvent =
  | { type: "server_connected"; server: string; tools: number; resources: number }
  | { type: "server_disconnected"; server: string; reason: string; retryInMs: number }
  | { type: "server_error"; server: string; message: string; retryInMs?: number }
  | { type: "tools_changed"; server: string; tools: number }
  /** A `notifications/message` log from the server. */
  | { type: "server_log"; server: string; level: string; logger?: string; message: string }
  /** A line the server process wrote on its standard error. */
  | { type: "server_stderr"; server: string; line: string }
  /** Any other notification the hub does not handle itself. */
  | { type: "notification"; server: string; method: string; params?: Record<string, unknown> }
  | { type: "progress"; server: string; tool: string; progress: number; total?: number; message?: string }
  /** The server asked for input (elicitation) when nobody could answer: declined. */
  | { type: "elicitation_declined"; server: string; reason: string };

export interface ReconnectSettings {
  /** Delay before the first retry. */
  initialDelayMs: number;
  maxDelayMs: number;
  factor: number;
}

export const defaultReconnectSettings: ReconnectSettings = { initialDelayMs: 1_000, maxDelayMs: 60_000, factor: 2 };

export function reconnectDelay(settings: ReconnectSettings, failures: number): number {
  const delay = settings.initialDelayMs * settings.factor ** Math.max(0, failures - 1);
  return Math.min(settings.maxDelayMs, Math.round(delay));
}
