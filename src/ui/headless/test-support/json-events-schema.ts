/**
 * Checks --json lines against docs/json-events.schema.json with a real JSON
 * Schema validator (ajv, draft 2020-12, strict but for `required` naming properties declared a level up), so the schema users read is
 * the one the tests hold cairn's output to.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";

export const jsonEventsSchemaPath = new URL("../../../../docs/json-events.schema.json", import.meta.url);

const schema = JSON.parse(readFileSync(jsonEventsSchemaPath, "utf8")) as Record<string, unknown>;
const validate = new Ajv2020({ strict: true, strictRequired: false, allErrors: true }).compile(schema);

/** Every way the line breaks the schema; empty when it fits. */
export function jsonEventProblems(line: unknown): string[] {
  if (validate(line)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || "(line)"} ${error.message ?? "is invalid"} ${JSON.stringify(error.params)}`);
}
