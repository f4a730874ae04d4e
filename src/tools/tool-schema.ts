/**
 * Turns a tool's one parameter schema into what each protocol needs: the
 * Cline-style text section of the system prompt (XML protocol) and the JSON
 * schema of its arguments (native protocol).
 */
import type { ToolSchema } from "../llm/types.js";
import type { Mode } from "../task/contracts/tool-executor.js";
import type { ToolDefinition, ToolParameter } from "./tool-definition.js";

export function descriptionOf(tool: ToolDefinition, mode: Mode): string {
  return typeof tool.description === "string" ? tool.description : tool.description(mode);
}

export function promptSection(tool: ToolDefinition, mode: Mode): string {
  const lines = [`## ${tool.name}`, `Description: ${descriptionOf(tool, mode)}`];
  if (tool.parameters.length > 0) {
    lines.push("Parameters:");
    for (const parameter of tool.parameters) {
      lines.push(`- ${parameter.name}: (${parameter.required ? "required" : "optional"}) ${parameter.description}`);
    }
  } else {
    lines.push("Parameters: none");
  }
  lines.push("Usage:", `<${tool.name}>`);
  for (const parameter of tool.parameters) {
    lines.push(`<${parameter.name}>${parameter.usage ?? `${parameter.name} here`}</${parameter.name}>`);
  }
  lines.push(`</${tool.name}>`);
  return lines.join("\n");
}

function parameterSchema(parameter: ToolParameter): Record<string, unknown> {
  const type = parameter.type ?? "string";
  const schema: Record<string, unknown> = { type, description: parameter.description };
  if (type === "array") schema["items"] = parameter.items ?? { type: "string" };
  return schema;
}

export function nativeSchema(tool: ToolDefinition, mode: Mode): ToolSchema {
  if (tool.inputSchema !== undefined) return { name: tool.name, description: descriptionOf(tool, mode), inputSchema: tool.inputSchema };
  const properties: Record<string, unknown> = {};
  for (const parameter of tool.parameters) properties[parameter.name] = parameterSchema(parameter);
  return {
    name: tool.name,
    description: descriptionOf(tool, mode),
    inputSchema: {
      type: "object",
      properties,
      required: tool.parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
      additionalProperties: false,
    },
  };
}

export function availableIn(tool: ToolDefinition, mode: Mode): boolean {
  return tool.modes === undefined || tool.modes.includes(mode);
}

export function xmlFormatIntroduction(parallel: boolean): string {
  return [
    "# Tools",
    "",
    "You call a tool by writing its name as an XML tag, with each parameter inside its own tag:",
    "<tool_name>",
    "<parameter1_name>value1</parameter1_name>",
    "<parameter2_name>value2</parameter2_name>",
    "</tool_name>",
    "",
    parallel ? "You may use several tools in one message; they run in order and you receive all their results." : "Use one tool per message and wait for its result before the next step.",
  ].join("\n");
}
