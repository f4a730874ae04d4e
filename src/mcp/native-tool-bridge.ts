import type { ToolSchema } from "../llm/types.js";
import type { ToolUseBlock } from "../parser/types.js";
import type { Mode, ToolCallContext, ToolExecutor, ToolOutcome } from "../task/contracts/tool-executor.js";
import type { McpHub } from "./hub.js";

type NativeMcp = Pick<McpHub, "nativeToolSchemas" | "resolveNativeToolName" | "getTool">;

/**
 * Native protocol: each MCP tool is offered as a tool of its own
 * (`mcp__server__tool`). A call to one is turned into the `use_mcp_tool` call it
 * stands for, so approval, validation and results stay in one place.
 */
export function withNativeMcpTools(executor: ToolExecutor, hub: NativeMcp): ToolExecutor {
  const translate = (block: ToolUseBlock): ToolUseBlock => {
    const reference = hub.resolveNativeToolName(block.name);
    if (reference === undefined) return block;
    const schema = hub.getTool(reference.server, reference.tool)?.inputSchema;
    return {
      ...block,
      name: "use_mcp_tool",
      params: { server_name: reference.server, tool_name: reference.tool, arguments: JSON.stringify(argumentsFromParams(block.params, schema)) },
    };
  };
  return {
    toolSchemas: (mode: Mode): ToolSchema[] => [...executor.toolSchemas(mode), ...(mode === "act" ? hub.nativeToolSchemas() : [])],
    promptDescriptions: (mode) => executor.promptDescriptions(mode),
    toolNames: () => executor.toolNames(),
    parameterNames: () => executor.parameterNames(),
    isReadOnly: (name) => (hub.resolveNativeToolName(name) ? false : executor.isReadOnly(name)),
    presentPartial: (block: ToolUseBlock, context: ToolCallContext) => executor.presentPartial(translate(block), context),
    executeTool: (block: ToolUseBlock, context: ToolCallContext): Promise<ToolOutcome> => executor.executeTool(translate(block), context),
    abortAll: () => executor.abortAll(),
  };
}

/**
 * Native calls reach the Task as string params (non-strings JSON-encoded);
 * the tool's schema says which ones to decode back.
 */
export function argumentsFromParams(params: Record<string, string>, schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const properties = (schema?.["properties"] ?? {}) as Record<string, { type?: unknown } | undefined>;
  const result: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    if (properties[name]?.type === "string") {
      result[name] = value;
      continue;
    }
    try {
      result[name] = JSON.parse(value) as unknown;
    } catch {
      result[name] = value;
    }
  }
  return result;
}
