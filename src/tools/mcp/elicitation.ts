/**
 * An MCP server's request for input (elicitation, form mode) as asks: one
 * `elicitation` ask per field of the requested schema, each answered like a
 * question (typed, or an option picked), on every surface. "no" (or typing
 * "decline") declines the whole form; a wrong value is asked again.
 */
import type { ElicitationMeta } from "../../task/contracts/message-meta.js";
import type { ToolCallContext } from "../../task/contracts/tool-executor.js";
import type { McpElicitation, McpElicitationAnswer } from "../mcp-port.js";

type Field = Omit<ElicitationMeta, "server" | "message" | "index" | "count">;
type Value = string | number | boolean;

const attemptsPerField = 3;

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function fieldOf(name: string, property: Record<string, unknown>, required: boolean): Field & { title: string; description?: string } {
  const declared = text(property["type"]);
  const type = declared === "number" || declared === "integer" || declared === "boolean" ? declared : "string";
  const oneOf = Array.isArray(property["oneOf"]) ? (property["oneOf"] as Array<Record<string, unknown>>).map((entry) => text(entry["const"])).filter((value) => value !== undefined) : [];
  const enumValues = Array.isArray(property["enum"]) ? (property["enum"] as unknown[]).map(String) : oneOf;
  const options = type === "boolean" ? ["true", "false"] : enumValues;
  const declaredDefault = property["default"];
  const fallback = typeof declaredDefault === "string" || typeof declaredDefault === "number" || typeof declaredDefault === "boolean" ? declaredDefault : undefined;
  const description = text(property["description"]);
  return {
    field: name,
    title: text(property["title"]) ?? name,
    ...(description === undefined ? {} : { description }),
    type,
    ...(options.length > 0 ? { options } : {}),
    required,
    ...(fallback === undefined ? {} : { default: String(fallback) }),
  };
}

/** The value typed for a field, or why it does not fit. */
function parseValue(field: Field, raw: string): { value: Value } | { problem: string } {
  if (field.options !== undefined && /^\d+$/.test(raw) && field.type !== "number" && field.type !== "integer") {
    const picked = field.options[Number(raw) - 1];
    if (picked !== undefined) raw = picked;
  }
  switch (field.type) {
    case "boolean": {
      const lower = raw.toLowerCase();
      if (["true", "yes", "y"].includes(lower)) return { value: true };
      if (["false", "no"].includes(lower)) return { value: false };
      return { problem: `"${raw}" is not true or false` };
    }
    case "number":
    case "integer": {
      const value = Number(raw);
      if (raw === "" || !Number.isFinite(value)) return { problem: `"${raw}" is not a number` };
      if (field.type === "integer" && !Number.isInteger(value)) return { problem: `"${raw}" is not a whole number` };
      return { value };
    }
    default:
      if (field.options !== undefined && field.options.length > 0 && !field.options.includes(raw)) return { problem: `"${raw}" is not one of ${field.options.join(", ")}` };
      return { value: raw };
  }
}

function prompt(request: McpElicitation, field: Field & { title: string; description?: string }, index: number, problem: string | undefined): string {
  const intro = index === 1 && problem === undefined ? `MCP server "${request.server}" asks: ${request.message}\n` : "";
  const about = field.description === undefined ? "" : ` (${field.description})`;
  const extra = [field.required ? undefined : "optional", field.default === undefined ? undefined : `default ${field.default}`].filter((part) => part !== undefined);
  return `${intro}${problem === undefined ? "" : `${problem}. `}${field.title}${about}${extra.length > 0 ? ` [${extra.join(", ")}]` : ""}:`;
}

export async function askForElicitation(context: Pick<ToolCallContext, "ask">, request: McpElicitation): Promise<McpElicitationAnswer> {
  const required = new Set(request.requestedSchema.required ?? []);
  const entries = Object.entries(request.requestedSchema.properties);
  const content: Record<string, Value> = {};
  for (const [position, [name, property]] of entries.entries()) {
    const field = fieldOf(name, property, required.has(name));
    const { title: _title, description: _description, ...shown } = field;
    const meta: ElicitationMeta = { server: request.server, message: request.message, ...shown, index: position + 1, count: entries.length };
    let problem: string | undefined;
    let settled = false;
    for (let attempt = 0; attempt < attemptsPerField && !settled; attempt++) {
      const answer = await context.ask("elicitation", prompt(request, field, position + 1, problem), { meta });
      if (answer.response === "no") return { action: "decline" };
      const raw = (answer.text ?? "").trim();
      if (raw.toLowerCase() === "decline") return { action: "decline" };
      // "yes" without words: the default, or true for a yes/no field.
      const typed = raw === "" && answer.response === "yes" && field.type === "boolean" ? "true" : raw;
      if (typed === "") {
        if (field.default !== undefined) {
          const fallback = parseValue(field, field.default);
          content[name] = "value" in fallback ? fallback.value : field.default;
        } else if (field.required) {
          problem = `${field.title} is required`;
          continue;
        }
        settled = true;
        continue;
      }
      const parsed = parseValue(field, typed);
      if ("problem" in parsed) {
        problem = parsed.problem;
        continue;
      }
      content[name] = parsed.value;
      settled = true;
    }
    if (!settled) return { action: "decline" };
  }
  return { action: "accept", content };
}
