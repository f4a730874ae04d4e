/**
 * "Always allow": a rule the user accepted is added to the permissions block
 * of the config file they chose (user or project), keeping everything else in
 * the file as it was.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

export async function addAllowRule(file: string, rule: string): Promise<void> {
  let config: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) config = parsed as Record<string, unknown>;
    else throw new Error(`${file} does not hold a JSON object; the rule was not saved`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const permissions = (typeof config["permissions"] === "object" && config["permissions"] !== null ? config["permissions"] : {}) as Record<string, unknown>;
  const allow = Array.isArray(permissions["allow"]) ? (permissions["allow"] as unknown[]) : [];
  if (!allow.includes(rule)) allow.push(rule);
  config["permissions"] = { ...permissions, allow };
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`);
  await rename(temporary, file);
}
