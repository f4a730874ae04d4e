/**
 * Names of MCP tools offered as native tools. The provider APIs accept at most 64
 * characters from `[a-zA-Z0-9_-]`, and the name must lead back to the server and tool.
 *
 * - Direct form `mcp__<server>__<tool>` when it fits and splits back unambiguously.
 * - Otherwise `mcph_<hash>_<readable>`: the hash of server and tool identifies the
 *   pair; the readable part is only for humans. Resolving it needs the known pairs.
 */
import { createHash } from "node:crypto";

export const nativeToolNameLimit = 64;
const directPrefix = "mcp__";
const hashedPrefix = "mcph_";
const separator = "__";
const validName = /^[a-zA-Z0-9_-]+$/;
const hashLength = 10;

export interface McpToolReference {
  server: string;
  tool: string;
}

function canUseDirectForm(server: string, tool: string): boolean {
  if (!validName.test(server) || !validName.test(tool)) return false;
  // The first "__" after the prefix ends the server name, so the server may not
  // contain "__" nor end with "_" (which would merge into the separator).
  if (server.includes(separator) || server.endsWith("_")) return false;
  return directPrefix.length + server.length + separator.length + tool.length <= nativeToolNameLimit;
}

function sanitize(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, "_");
}

function pairHash(server: string, tool: string): string {
  return createHash("sha256").update(`${server}\u0000${tool}`).digest("hex").slice(0, hashLength);
}

export function nativeToolName(server: string, tool: string): string {
  if (canUseDirectForm(server, tool)) return `${directPrefix}${server}${separator}${tool}`;
  const head = `${hashedPrefix}${pairHash(server, tool)}_`;
  const readable = `${sanitize(server)}${separator}${sanitize(tool)}`;
  return head + readable.slice(0, nativeToolNameLimit - head.length);
}

export function isMcpNativeToolName(name: string): boolean {
  return name.startsWith(directPrefix) || name.startsWith(hashedPrefix);
}

/**
 * The server and tool behind a native name. Direct names decode alone; hashed names
 * are matched against `known` (the hub passes its current tools).
 */
export function parseNativeToolName(name: string, known: Iterable<McpToolReference> = []): McpToolReference | undefined {
  if (name.startsWith(directPrefix)) {
    const rest = name.slice(directPrefix.length);
    const split = rest.indexOf(separator);
    if (split <= 0) return undefined;
    const server = rest.slice(0, split);
    const tool = rest.slice(split + separator.length);
    if (tool === "" || !canUseDirectForm(server, tool)) return undefined;
    return { server, tool };
  }
  if (name.startsWith(hashedPrefix)) {
    for (const reference of known) {
      if (nativeToolName(reference.server, reference.tool) === name) return { ...reference };
    }
  }
  return undefined;
}
