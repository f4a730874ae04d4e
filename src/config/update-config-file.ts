/**
 * Changes one key of a `config.json` and keeps everything else in the file as
 * it was (written to a temporary file, then renamed over it).
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { ConfigError } from "./errors.js";

export async function setConfigKey(file: string, key: string, value: unknown): Promise<void> {
  let config: Record<string, unknown> = {};
  let text: string | undefined;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (text !== undefined && text.trim() !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(`${file} is not valid JSON (${(error as Error).message}); fix it first, nothing was changed.`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new ConfigError(`${file} does not hold a JSON object; fix it first, nothing was changed.`);
    config = parsed as Record<string, unknown>;
  }
  if (value === undefined) delete config[key];
  else config[key] = value;
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`);
  await rename(temporary, file);
}
