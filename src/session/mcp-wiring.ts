import type { ResolvedSettings } from "../config/index.js";
import { loadMcpConfig } from "../mcp/config.js";
import { enabledPlugins, pluginPlaces } from "../plugins/plugin-contributions.js";
import type { McpServerConfig } from "../mcp/config.js";
import type { McpHub } from "../mcp/hub.js";
import type { McpReferenceSource } from "../mcp/user-references.js";
import type { McpPort } from "../tools/mcp-port.js";
import type { McpNotificationMeta } from "../task/contracts/message-meta.js";
import type { McpGate } from "../task/contracts/seams.js";
import { noMcp } from "../task/contracts/seams.js";
import type { ToolExecutor } from "../task/contracts/tool-executor.js";

export interface McpWiring {
  gate: McpGate;
  port: McpPort | undefined;
  /** The servers' prompts and resources for the user's `/mcp__server__prompt` and `@server:uri`. */
  references: McpReferenceSource | undefined;
  /** Native protocol: each MCP tool becomes a tool of its own. */
  wrap(executor: ToolExecutor): ToolExecutor;
  close(): Promise<void>;
}

export interface McpStartOptions {
  settings: ResolvedSettings;
  notice: (text: string, meta?: McpNotificationMeta) => void;
  /** Starts stdio servers under the sandbox when it is on (#14). */
  sandboxServers?: (servers: McpServerConfig[]) => McpServerConfig[];
  /** Servers given by the caller (an editor over ACP); they replace configured ones of the same name. */
  extraServers?: McpServerConfig[];
}

export const noMcpWiring: McpWiring = { gate: noMcp, port: undefined, references: undefined, wrap: (executor) => executor, close: async () => {} };

/** The servers a task may start: the configured ones (a project's only once the folder is trusted, docs/mcp.md), the enabled plugins' and the caller's. */
export async function sessionMcpServers(options: McpStartOptions): Promise<McpServerConfig[]> {
  const { settings, notice } = options;
  const plugins = await enabledPlugins(pluginPlaces(settings));
  const loaded = await loadMcpConfig({
    userConfigDir: settings.userConfigDir,
    workspace: settings.cwd,
    projectTrusted: settings.trust.trusted,
    claudeStateFile: settings.claudeStateFile,
    pluginServers: plugins.mcpServers,
  });
  for (const text of plugins.notices) notice(text);
  const extra = options.extraServers ?? [];
  for (const warning of loaded.warnings) notice(warning);
  return [...loaded.servers.filter((server) => !extra.some((given) => given.name === server.name)), ...extra];
}

/** The wiring of a running hub for one task's settings (the tool protocol decides how its tools are offered). */
export async function mcpWiringOf(hub: McpHub, settings: ResolvedSettings, close: () => Promise<void>): Promise<McpWiring> {
  const { withNativeMcpTools } = await import("../mcp/native-tool-bridge.js");
  return { gate: hub, port: hub, references: hub, wrap: (executor) => (settings.toolProtocol === "native" ? withNativeMcpTools(executor, hub) : executor), close };
}

/** Starts a hub for `servers` (at least one), whose events become the task's MCP notices. */
export async function startMcpHub(servers: McpServerConfig[], options: McpStartOptions): Promise<McpHub> {
  const { settings, notice } = options;
  const [{ McpHub }, { describeMcpEvent, describeToolReview }] = await Promise.all([import("../mcp/hub.js"), import("../mcp/describe.js")]);
  // Tool descriptions come from servers that may not be trustworthy: a new
  // server's tools are shown once (and remembered), a change is warned about
  // until the user approves it (`cairn mcp approve NAME`).
  let reviewing = Promise.resolve();
  const reviewTools = (): Promise<void> =>
    (reviewing = reviewing
      .then(async () => {
        for (const review of await hub.reviewToolDescriptions()) {
          const described = describeToolReview(review);
          notice(described.text, { review: review.kind, server: review.server, severity: described.severity });
          if (review.kind === "new_server") await hub.approve(review.server);
        }
      })
      .catch(() => undefined));
  const hub = new McpHub({
    servers: options.sandboxServers?.(servers) ?? servers,
    dataDir: settings.dataDir,
    clientName: "cairn",
    onEvent: (event) => {
      const described = describeMcpEvent(event);
      if (described) notice(described.text, { ...event, severity: described.severity });
      if (event.type === "server_connected" || event.type === "tools_changed") void reviewTools();
    },
  });
  hub.start();
  return hub;
}

/**
 * The task's MCP servers. With none configured, the MCP SDK is not even
 * loaded, so a task without MCP starts faster.
 */
export async function startMcp(options: McpStartOptions): Promise<McpWiring> {
  const servers = await sessionMcpServers(options);
  if (servers.length === 0) return noMcpWiring;
  const hub = await startMcpHub(servers, options);
  return mcpWiringOf(hub, options.settings, () => hub.close());
}
