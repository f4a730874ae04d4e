/**
 * Text for the user about MCP events and tool reviews, so every surface (terminal
 * UI, headless printer) says the same thing. The Task shows these with
 * `say("mcp_notification", text)`.
 */
import type { McpHubEvent } from "./events.js";
import type { ToolDescriptionReview } from "./trust-store.js";

export type McpNoticeSeverity = "info" | "warning" | "error";

export interface McpNotice {
  text: string;
  severity: McpNoticeSeverity;
}

const quietLogLevels = new Set(["debug", "info"]);
const seriousLogLevels = new Set(["error", "critical", "alert", "emergency"]);

function seconds(milliseconds: number): string {
  return milliseconds < 1000 ? `${milliseconds} ms` : `${Math.round(milliseconds / 100) / 10} s`;
}

/**
 * What to show for an event, or undefined for chatter the user does not need
 * (standard error lines, debug and info logs, progress which goes to the running
 * call) unless `verbose`.
 */
export function describeMcpEvent(event: McpHubEvent, options: { verbose?: boolean } = {}): McpNotice | undefined {
  const verbose = options.verbose === true;
  switch (event.type) {
    case "server_connected":
      return { severity: "info", text: `MCP server "${event.server}" connected (${event.tools} tools, ${event.resources} resources)` };
    case "server_disconnected":
      return { severity: "warning", text: `MCP server "${event.server}" disconnected: ${event.reason}; its tools are unavailable, retrying in ${seconds(event.retryInMs)}` };
    case "server_error":
      return {
        severity: "error",
        text: event.retryInMs === undefined ? event.message : `${event.message}\n(retrying in ${seconds(event.retryInMs)})`,
      };
    case "tools_changed":
      return { severity: "info", text: `MCP server "${event.server}" changed its tools (now ${event.tools})` };
    case "server_log": {
      if (quietLogLevels.has(event.level) && !verbose) return undefined;
      const source = event.logger === undefined ? event.server : `${event.server}/${event.logger}`;
      return { severity: seriousLogLevels.has(event.level) ? "error" : event.level === "warning" ? "warning" : "info", text: `[${source} ${event.level}] ${event.message}` };
    }
    case "server_stderr":
      return verbose ? { severity: "info", text: `[${event.server} stderr] ${event.line}` } : undefined;
    case "notification":
      return verbose ? { severity: "info", text: `MCP server "${event.server}": ${event.method} ${JSON.stringify(event.params ?? {})}` } : undefined;
    case "elicitation_declined":
      return { severity: "warning", text: `MCP server "${event.server}" asked for input, declined: ${event.reason}` };
    case "progress":
      return verbose ? { severity: "info", text: `${event.server}/${event.tool}: progress ${event.progress}${event.total === undefined ? "" : `/${event.total}`}` } : undefined;
  }
}

function toolLines(tools: Array<{ name: string; description: string; inputSchema: Record<string, unknown> }>): string[] {
  return tools.flatMap((tool) => [`- ${tool.name}: ${tool.description.trim().replace(/\n/g, "\n    ") || "(no description)"}`, `    input: ${JSON.stringify(tool.inputSchema)}`]);
}

/**
 * The text shown on a server's first connection (all its tools, which the model
 * will read) or after its approved tools changed (a warning with what changed).
 */
export function describeToolReview(review: ToolDescriptionReview): McpNotice {
  if (review.kind === "new_server") {
    return {
      severity: "warning",
      text: [`New MCP server "${review.server}": the model will read these tool descriptions. Check that they only describe tools:`, ...toolLines(review.tools)].join("\n"),
    };
  }
  const lines = [`WARNING: MCP server "${review.server}" changed its tools since you approved them. Check them before going on:`];
  if (review.changed.length > 0) lines.push("Changed:", ...toolLines(review.changed));
  if (review.added.length > 0) lines.push("Added:", ...toolLines(review.added));
  if (review.removed.length > 0) lines.push(`Removed: ${review.removed.join(", ")}`);
  return { severity: "warning", text: lines.join("\n") };
}
