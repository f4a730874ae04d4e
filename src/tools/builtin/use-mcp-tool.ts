/** use_mcp_tool: calls a tool of a connected MCP server, after checking its arguments. */
import { describeError } from "../file-io.js";
import { askForElicitation } from "../mcp/elicitation.js";
import { mcpOutcome } from "../mcp/mcp-result.js";
import { validateJsonSchema } from "../mcp/validate-json-schema.js";
import { invalidParameter, mistake, toolError, withApprovalFeedback } from "../responses.js";
import type { ToolDefinition } from "../tool-definition.js";

export const useMcpToolTool: ToolDefinition = {
  name: "use_mcp_tool",
  description: "Call a tool offered by a connected MCP server. The arguments must follow the tool's input schema.",
  parameters: [
    { name: "server_name", required: true, description: "The MCP server's name.", usage: "server name here" },
    { name: "tool_name", required: true, description: "The tool's name on that server.", usage: "tool name here" },
    { name: "arguments", required: false, type: "object", description: "The tool's arguments as a JSON object.", usage: '{\n  "param1": "value1"\n}' },
  ],
  readOnly: false,
  // Offered only when at least one MCP server is configured.
  isAvailable: (options) => options.mcp !== undefined && options.mcp.serverStatus().length > 0,
  describePartial(params) {
    return { text: `${params["server_name"] ?? ""} / ${params["tool_name"] ?? ""}`, meta: { tool: "use_mcp_tool", server: params["server_name"] ?? "", name: params["tool_name"] ?? "" } };
  },
  async execute(params, runtime) {
    const mcp = runtime.options.mcp;
    if (mcp === undefined) return toolError("no MCP servers are configured.");
    const server = (params["server_name"] ?? "").trim();
    const name = (params["tool_name"] ?? "").trim();
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
    const tool = mcp.getTool(server, name);
    if (tool === undefined) {
      const names = mcp
        .listTools()
        .filter((entry) => entry.server === server)
        .map((entry) => entry.name);
      return mistake(`The MCP server '${server}' has no tool named '${name}'. Its tools: ${names.join(", ") || "none"}.`);
    }
    const rawArguments = params["arguments"]?.trim() ?? "";
    let args: unknown = {};
    if (rawArguments !== "") {
      try {
        args = JSON.parse(rawArguments);
      } catch (error) {
        return invalidParameter({ tool: "use_mcp_tool", parameter: "arguments", problem: `it is not valid JSON (${describeError(error)}).` });
      }
    }
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      return invalidParameter({ tool: "use_mcp_tool", parameter: "arguments", problem: "it must be a JSON object." });
    }
    const problems = validateJsonSchema(tool.inputSchema, args);
    if (problems.length > 0) {
      return mistake(`The arguments do not fit the input schema of ${server}/${name}, so it was not called:\n- ${problems.join("\n- ")}\nThe schema is:\n${JSON.stringify(tool.inputSchema, null, 2)}`);
    }
    const argumentsObject = args as Record<string, unknown>;
    const decision = await runtime.approvals.approve({
      request: { kind: "mcp", serverAutoApprove: tool.autoApprove, server, tool: name },
      context: runtime.context,
      presentation: { key: runtime.callId, text: `${server} / ${name}\n${JSON.stringify(argumentsObject, null, 2)}`, meta: { tool: "use_mcp_tool", server, name, arguments: argumentsObject } },
    });
    if (!decision.approved) return decision.outcome;
    try {
      const result = await mcp.callTool({
        server,
        tool: name,
        arguments: argumentsObject,
        signal: runtime.context.signal,
        onProgress: (message) => runtime.context.say("mcp_notification", message, { partial: true, key: `${runtime.callId}:progress` }),
        // The server may ask the user for input while the call runs: each field becomes a question.
        onElicit: (request) => askForElicitation(runtime.context, request),
      });
      return withApprovalFeedback(mcpOutcome(runtime, result), decision.feedback);
    } catch (error) {
      return toolError(`the call to ${server}/${name} failed: ${describeError(error)}`);
    }
  },
};
