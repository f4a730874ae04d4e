/**
 * Checks MCP tool arguments against the tool's declared input schema before
 * the call, for the keywords schemas commonly use: type, required,
 * properties, additionalProperties (false), enum, const and items. Unknown
 * keywords are ignored: the server still has the last word.
 */

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  if (type === "number") return actual === "number" || actual === "integer";
  return actual === type;
}

function isSchema(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Returns one message per problem; an empty list means the value fits. */
export function validateJsonSchema(schema: unknown, value: unknown, path = "arguments"): string[] {
  if (!isSchema(schema)) return [];
  const problems: string[] = [];
  const type = schema["type"];
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === "string") : [];
  if (types.length > 0 && !types.some((entry) => matchesType(value, entry))) {
    return [`${path} must be ${types.join(" or ")}, but it is ${typeOf(value)}`];
  }
  const allowed = schema["enum"];
  if (Array.isArray(allowed) && !allowed.some((entry) => JSON.stringify(entry) === JSON.stringify(value))) {
    problems.push(`${path} must be one of ${allowed.map((entry) => JSON.stringify(entry)).join(", ")}`);
  }
  if ("const" in schema && JSON.stringify(schema["const"]) !== JSON.stringify(value)) {
    problems.push(`${path} must be ${JSON.stringify(schema["const"])}`);
  }
  if (isSchema(value) && typeOf(value) === "object") {
    const properties = isSchema(schema["properties"]) ? schema["properties"] : {};
    const required = Array.isArray(schema["required"]) ? schema["required"] : [];
    for (const name of required) {
      if (typeof name === "string" && !(name in value)) problems.push(`${path}.${name} is required`);
    }
    for (const [name, entry] of Object.entries(value)) {
      if (name in properties) problems.push(...validateJsonSchema(properties[name], entry, `${path}.${name}`));
      else if (schema["additionalProperties"] === false) problems.push(`${path}.${name} is not a known argument (known: ${Object.keys(properties).join(", ") || "none"})`);
      else if (isSchema(schema["additionalProperties"])) problems.push(...validateJsonSchema(schema["additionalProperties"], entry, `${path}.${name}`));
    }
  }
  if (Array.isArray(value) && isSchema(schema["items"])) {
    for (const [index, entry] of value.entries()) problems.push(...validateJsonSchema(schema["items"], entry, `${path}[${index}]`));
  }
  return problems;
}
