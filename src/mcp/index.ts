/** The MCP client: configuration, the hub the Task and tools use, names, trust, user-facing text. */
import { loadMcpConfig } from "./config.js";
import type { McpHubEvent } from "./events.js";
import { McpHub } from "./hub.js";
import type { McpHubOptions } from "./hub.js";

export { defaultToolTimeoutSeconds, loadMcpConfig, McpConfigError, parseMcpConfig, projectMcpConfigPath, userMcpConfigPath } from "./config.js";
export type { McpServerConfig, McpTransportConfig } from "./config.js";
export { addServerToConfig, removeServerFromConfig } from "./config-edit.js";
export { describeMcpEvent, describeToolReview } from "./describe.js";
export type { McpNotice, McpNoticeSeverity } from "./describe.js";
export { defaultReconnectSettings } from "./events.js";
export type { McpHubEvent, ReconnectSettings } from "./events.js";
export { McpCallError, McpHub } from "./hub.js";
export type { McpHubOptions, McpServerState } from "./hub.js";
export { isMcpNativeToolName, nativeToolName, nativeToolNameLimit, parseNativeToolName } from "./native-names.js";
export type { McpToolReference } from "./native-names.js";
export { McpTrustStore } from "./trust-store.js";
export type { ToolDescriptionReview } from "./trust-store.js";

/**
 * Reads the configuration and builds a hub for one task, not yet started (call
 * `start()`, or let the Task's first `waitForServers` start it). Throws
 * `McpConfigError` when a file is wrong; `warnings` are for the user.
 */
export async function createMcpHubForTask(options: {
  userConfigDir: string;
  workspace: string;
  projectTrusted: boolean;
  dataDir: string;
  onEvent?: (event: McpHubEvent) => void;
  clientVersion?: string;
  hubOptions?: Omit<McpHubOptions, "servers" | "onEvent" | "dataDir" | "clientVersion">;
}): Promise<{ hub: McpHub; warnings: string[] }> {
  const { servers, warnings } = await loadMcpConfig(options);
  const hub = new McpHub({
    ...options.hubOptions,
    servers,
    dataDir: options.dataDir,
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    ...(options.clientVersion === undefined ? {} : { clientVersion: options.clientVersion }),
  });
  return { hub, warnings };
}
