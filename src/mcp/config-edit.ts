/**
 * Edits the user's `mcp.json` for `cairn mcp add|remove`: the rest of the file is
 * kept as it is, the result is validated before it is written, and the write goes
 * through a temporary file and a rename so a crash never leaves half a file.
 */
import { randomUUID } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { McpConfigError, parseMcpConfig, readMcpConfigFile } from "./config.js";

export type McpServerEntry = Record<string, unknown>;

async function readForEdit(file: string): Promise<{ root: Record<string, unknown>; servers: Record<string, McpServerEntry> }> {
  const raw = (await readMcpConfigFile(file)) ?? { mcpServers: {} };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new McpConfigError(`${file}: expected an object {"mcpServers": {...}}; fix the file by hand first`);
  }
  const root = raw as Record<string, unknown>;
  const servers = root["mcpServers"] ?? {};
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    throw new McpConfigError(`${file}: "mcpServers" must be an object; fix the file by hand first`);
  }
  return { root, servers: servers as Record<string, McpServerEntry> };
}

async function writeAtomically(file: string, contents: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(contents, null, 2)}\n`, { encoding: "utf8", mode: 0o600 });
  await rename(temporary, file);
}

/** Adds (or, with `replace`, replaces) one server; returns whether one was replaced. */
export async function addServerToConfig(options: { file: string; name: string; entry: McpServerEntry; replace: boolean }): Promise<{ replaced: boolean }> {
  const { root, servers } = await readForEdit(options.file);
  const replaced = Object.hasOwn(servers, options.name);
  if (replaced && !options.replace) {
    throw new McpConfigError(`${options.file}: a server named "${options.name}" already exists; remove it first (cairn mcp remove ${options.name}) or add --force`);
  }
  const updated = { ...root, mcpServers: { ...servers, [options.name]: options.entry } };
  // Only the new entry is checked here: the user may be adding a server to fix the
  // file, and errors in other entries are reported when the file is loaded.
  parseMcpConfig({ mcpServers: { [options.name]: options.entry } }, { file: options.file, baseDirectory: dirname(options.file) });
  await writeAtomically(options.file, updated);
  return { replaced };
}

export async function removeServerFromConfig(options: { file: string; name: string }): Promise<void> {
  const { root, servers } = await readForEdit(options.file);
  if (!Object.hasOwn(servers, options.name)) {
    const names = Object.keys(servers);
    throw new McpConfigError(`${options.file}: there is no server named "${options.name}"${names.length === 0 ? "" : ` (servers: ${names.join(", ")})`}`);
  }
  const remaining = Object.fromEntries(Object.entries(servers).filter(([name]) => name !== options.name));
  await writeAtomically(options.file, { ...root, mcpServers: remaining });
}
