/**
 * The arguments of a custom tool (custom-tool.ts) from its zod object schema:
 * the JSON schema the native protocol offers (`z.toJSONSchema`), the parameter
 * list the XML prompt and the required-parameter check read, the coercion of
 * text values (every XML value, and native values the Task hands over as text)
 * to the types the schema wants, and the model-facing message when zod refuses them.
 */
import { z } from "zod";
import type { ToolOutcome } from "../task/contracts/tool-executor.js";
import { invalidParameter, mistake, type Protocol } from "./responses.js";
import type { ParameterType, ToolParameter } from "./tool-definition.js";

type JsonSchema = Record<string, unknown>;

/** The JSON schema of a tool's arguments (type "object", without `$schema`), as the model receives it in the native protocol. */
export function argumentsJsonSchema(object: z.ZodObject): JsonSchema {
  // `input`: what the model sends (fields with defaults are optional); types JSON cannot state are left open.
  const generated = z.toJSONSchema(object, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const { $schema: _dialect, ...schema } = generated;
  return { ...schema, type: "object", properties: propertiesOf(schema) };
}

export function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  const properties = schema["properties"];
  return typeof properties === "object" && properties !== null ? (properties as Record<string, JsonSchema>) : {};
}

function requiredOf(schema: JsonSchema): string[] {
  const required = schema["required"];
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === "string") : [];
}

/**
 * The JSON types a property accepts (`integer` also counts as `number`), or undefined when
 * the schema does not say (`z.any()`, a type JSON cannot state): then the text is passed as it is.
 */
export function acceptedTypes(schema: JsonSchema): Set<string> | undefined {
  const types = new Set<string>();
  const type = schema["type"];
  if (typeof type === "string") types.add(type);
  if (Array.isArray(type)) for (const entry of type) if (typeof entry === "string") types.add(entry);
  const values = Array.isArray(schema["enum"]) ? (schema["enum"] as unknown[]) : "const" in schema ? [schema["const"]] : [];
  for (const value of values) types.add(value === null ? "null" : Array.isArray(value) ? "array" : typeof value);
  for (const key of ["anyOf", "oneOf"]) {
    const members = schema[key];
    if (!Array.isArray(members)) continue;
    for (const member of members as JsonSchema[]) {
      const inner = acceptedTypes(member);
      if (inner === undefined) return undefined;
      for (const entry of inner) types.add(entry);
    }
  }
  if (types.has("integer")) types.add("number");
  return types.size === 0 ? undefined : types;
}

function fits(value: unknown, types: Set<string>): boolean {
  if (value === null) return types.has("null");
  if (Array.isArray(value)) return types.has("array");
  if (typeof value === "number") return types.has("number");
  if (typeof value === "object") return types.has("object");
  return types.has(typeof value);
}

/**
 * One value as text, turned into what the property's schema wants: numbers, booleans,
 * null, and JSON for arrays and objects. An empty value (or `null` where null is not
 * accepted) of a property that is not text counts as absent. What cannot be turned
 * stays text, for zod to name the problem.
 */
export function coerceValue(text: string, schema: JsonSchema): unknown {
  const types = acceptedTypes(schema);
  if (types === undefined) return text;
  if (types.size === 1 && types.has("string")) {
    // A native `null` for an enum (models send it for optional fields) is no choice at all.
    const choices = Array.isArray(schema["enum"]) ? (schema["enum"] as unknown[]) : undefined;
    return text === "null" && choices !== undefined && !choices.includes("null") ? undefined : text;
  }
  const trimmed = text.trim();
  if (trimmed === "" && !types.has("string")) return undefined;
  if (types.has("boolean") && /^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === "true";
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (fits(parsed, types)) return parsed;
    if (parsed === null) return types.has("string") ? text : undefined;
  } catch {
    // not JSON: text, if text is accepted; else zod says what was expected
  }
  return text;
}

/** The call's values (text, whatever the protocol) as the object zod checks: only the schema's properties. */
export function coerceArguments(params: Record<string, string>, schema: JsonSchema): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    const text = params[name];
    if (text === undefined) continue;
    const value = coerceValue(text, property);
    if (value !== undefined) input[name] = value;
  }
  return input;
}

const parameterTypes: readonly ParameterType[] = ["string", "integer", "number", "boolean", "array", "object"];

function parameterType(schema: JsonSchema): ParameterType {
  const types = acceptedTypes(schema);
  if (types === undefined) return "string";
  if (types.has("string")) return "string";
  return parameterTypes.find((type) => types.has(type)) ?? "string";
}

/** How the XML prompt tells the model to write a value that is not plain text. */
function formatHint(schema: JsonSchema, type: ParameterType): string | undefined {
  const values = Array.isArray(schema["enum"]) ? (schema["enum"] as unknown[]) : undefined;
  if (values !== undefined) return `one of: ${values.map((value) => (typeof value === "string" ? value : JSON.stringify(value))).join(", ")}`;
  switch (type) {
    case "integer":
      return "a whole number";
    case "number":
      return "a number";
    case "boolean":
      return "true or false";
    case "array":
      return "a JSON array";
    case "object":
      return "a JSON object";
    case "string":
      return undefined;
  }
}

const usageExamples: Record<ParameterType, string | undefined> = {
  string: undefined,
  integer: "1",
  number: "1",
  boolean: "true",
  array: '["item"]',
  object: '{"key": "value"}',
};

/** Each top-level property as a `ToolParameter`: its description, whether it is required, its type. */
export function parametersOf(schema: JsonSchema): ToolParameter[] {
  const required = new Set(requiredOf(schema));
  return Object.entries(propertiesOf(schema)).map(([name, property]) => {
    const type = parameterType(property);
    const described = typeof property["description"] === "string" ? property["description"] : "";
    const hint = formatHint(property, type);
    const description = hint === undefined ? described : described === "" ? `(${hint})` : `${described} (${hint})`;
    const enumValues = Array.isArray(property["enum"]) ? (property["enum"] as unknown[]) : undefined;
    const first = enumValues?.[0];
    const usage = first !== undefined ? (typeof first === "string" ? first : JSON.stringify(first)) : usageExamples[type];
    const parameter: ToolParameter = { name, required: required.has(name), description, type, allowEmpty: true };
    if (usage !== undefined) parameter.usage = usage;
    if (type === "array" && typeof property["items"] === "object" && property["items"] !== null) parameter.items = property["items"] as JsonSchema;
    return parameter;
  });
}

function fieldOf(issue: z.core.$ZodIssue): string {
  return issue.path.length === 0 ? "(the arguments)" : issue.path.map((part) => String(part)).join(".");
}

/** A zod refusal as a model mistake naming each field and its problem. */
export function invalidArguments(options: { tool: string; error: z.ZodError; protocol: Protocol; schema: JsonSchema }): ToolOutcome {
  const { tool, error, protocol } = options;
  const issues = error.issues;
  const structured = issues.some((issue) => {
    const property = propertiesOf(options.schema)[String(issue.path[0] ?? "")];
    const type = property === undefined ? undefined : parameterType(property);
    return type === "array" || type === "object";
  });
  const xmlHint = protocol === "xml" && structured ? ' Write arrays and objects as JSON inside their tag, e.g. <tags>["a", "b"]</tags>.' : "";
  const resend = `Send the call again with corrected arguments.${xmlHint}`;
  const first = issues[0];
  if (issues.length === 1 && first !== undefined) {
    return invalidParameter({ tool, parameter: fieldOf(first), problem: `${first.message}. ${resend}` });
  }
  const lines = issues.map((issue) => `- '${fieldOf(issue)}': ${issue.message}`);
  return mistake(`invalid arguments for ${tool}, so it did not run:\n${lines.join("\n")}\n${resend}`);
}
