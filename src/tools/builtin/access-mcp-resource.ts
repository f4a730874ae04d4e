/** access_mcp_resource: reads a resource of a connected MCP server. */
import { describeError } from "../file-io.js";
import { mcpOutcome } from "../mcp/mcp-result.js";
import { mistake, toolError, withApprovalFeedback } from "../responses.js";
import type { ToolDefinition } from "../tool-definition.js";

export const accessMcpResourceTool: ToolDefinition = {
  name: "access_mcp_resource",
  description: "Read a resource (a file, a record, a document) offered by a connected MCP server, by its URI.",
  parameters: [
    { name: "server_name", required: true, description: "The MCP server's name.", usage: "server name here" },
    { name: "uri", required: true, description: "The URI of the resource.", usage: "resource URI here" },
  ],
  readOnly: true,
  // Offered only when at least one MCP server is configured.
  isAvailable: (options) => options.mcp !== undefined && options.mcp.serverStatus().length > 0,
  describePartial(params) {
    return { text: `${params["server_name"] ?? ""} ${params["uri"] ?? ""}`, meta: { tool: "access_mcp_resource", server: params["server_name"] ?? "", uri: params["uri"] ?? "" } };
  },
  async execute(params, runtime) {
    const mcp = runtime.options.mcp;
    if (mcp === undefined) return toolError("no MCP servers are configured.");
    const server = (params["server_name"] ?? "").trim();
    const uri = (params["uri"] ?? "").trim();
    const status = mcp.serverStatus().find((entry) => entry.name === server);
    if (status === undefined) {
      return mistake(
        `There is no MCP server named '${server}'. Servers: ${
          mcp
            .serverStatus()
            .map((entry) => entry.name)
            .join(", ") || "none"
        }.`,
      );
    }
    if (!status.connected) return toolError(`the MCP server '${server}' is not connected${status.error ? `: ${status.error}` : ""}.`);
    const decision = await runtime.approvals.approve({
      request: { kind: "mcp", serverAutoApprove: false },
      context: runtime.context,
      presentation: { key: runtime.callId, text: `${server}: read ${uri}`, meta: { tool: "access_mcp_resource", server, uri } },
    });
    if (!decision.approved) return decision.outcome;
    try {
      const result = await mcp.readResource({ server, uri, signal: runtime.context.signal });
      return withApprovalFeedback(mcpOutcome(runtime, result), decision.feedback);
    } catch (error) {
      return toolError(`reading ${uri} from ${server} failed: ${describeError(error)}`);
    }
  },
};
