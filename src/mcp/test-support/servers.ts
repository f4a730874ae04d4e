/**
 * Real MCP servers from npm for tests, started with `process.execPath` (never npx,
 * which would reach the registry at run time).
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerConfig, McpTransportConfig } from "../config.js";
import type { McpHubEvent } from "../events.js";

const moduleRoot = fileURLToPath(new URL("../../../node_modules/@modelcontextprotocol/", import.meta.url));
export const everythingEntry = join(moduleRoot, "server-everything", "dist", "index.js");
export const filesystemEntry = join(moduleRoot, "server-filesystem", "dist", "index.js");

export function serverConfig(
  name: string,
  transport: McpTransportConfig,
  extra: Partial<Omit<McpServerConfig, "name" | "transport">> = {},
): McpServerConfig {
  return { name, transport, disabled: false, autoApprove: [], timeoutMs: 20_000, source: "test", ...extra };
}

export function everythingStdio(): McpTransportConfig {
  return { type: "stdio", command: process.execPath, args: [everythingEntry, "stdio"], env: {} };
}

export function filesystemStdio(folder: string): McpTransportConfig {
  return { type: "stdio", command: process.execPath, args: [filesystemEntry, folder], env: {} };
}

export async function makeTemporaryFolder(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `cairn-mcp-${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/**
 * A wrapper that waits until `gateFile` exists before it starts server-everything:
 * a server "slow to start" whose readiness the test controls, without timing.
 */
export async function gatedEverythingStdio(folder: string, gateFile: string): Promise<McpTransportConfig> {
  const script = join(folder, "gated-server.mjs");
  await writeFile(
    script,
    [
      'import { existsSync } from "node:fs";',
      'import { pathToFileURL } from "node:url";',
      "const [gate, entry, ...rest] = process.argv.slice(2);",
      "while (!existsSync(gate)) await new Promise((resolve) => setTimeout(resolve, 20));",
      "process.argv = [process.argv[0], entry, ...rest];",
      "await import(pathToFileURL(entry).href);",
      "",
    ].join("\n"),
  );
  return { type: "stdio", command: process.execPath, args: [script, gateFile, everythingEntry, "stdio"], env: {} };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface HttpEverything {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** server-everything serving streamable HTTP (or the older SSE transport) on loopback; resolves once it listens. */
export async function startHttpEverything(port?: number, kind: "streamableHttp" | "sse" = "streamableHttp"): Promise<HttpEverything> {
  const chosen = port ?? (await freePort());
  const child = spawn(process.execPath, [everythingEntry, kind], {
    env: { ...process.env, PORT: String(chosen) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let output = "";
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (/listening on port|running on port/.test(output)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`server-everything (HTTP) exited with ${code}: ${output}`)));
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGKILL");
    await exited;
  };
  const path = kind === "sse" ? "/sse" : "/mcp";
  return { url: `http://127.0.0.1:${chosen}${path}`, port: chosen, process: child, stop };
}

/** Collects hub events and lets a test wait for one, without timing. */
export class EventLog {
  readonly events: McpHubEvent[] = [];
  private readonly waiters: Array<{ match: (event: McpHubEvent) => boolean; resolve: (event: McpHubEvent) => void }> = [];

  readonly listener = (event: McpHubEvent): void => {
    this.events.push(event);
    for (const waiter of [...this.waiters]) {
      if (waiter.match(event)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  };

  /** The next event matching, counting from now on. */
  next<T extends McpHubEvent["type"]>(type: T, server?: string): Promise<Extract<McpHubEvent, { type: T }>> {
    return new Promise((resolve) => {
      this.waiters.push({
        match: (event) => event.type === type && (server === undefined || ("server" in event && event.server === server)),
        resolve: (event) => resolve(event as Extract<McpHubEvent, { type: T }>),
      });
    });
  }

  of<T extends McpHubEvent["type"]>(type: T): Array<Extract<McpHubEvent, { type: T }>> {
    return this.events.filter((event): event is Extract<McpHubEvent, { type: T }> => event.type === type);
  }
}
