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

export function serverConfig(name: string, transport: McpTransportConfig, extra: Partial<Omit<McpServerConfig, "name" | "transport">> = {}): McpServerConfig {
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

export interface WrapperOptions {
  /** The server starts only once this file exists: "slow to start", controlled by the test. */
  gateFile?: string;
  /** The wrapper writes its process id here (end-to-end tests cannot ask the hub). */
  pidFile?: string;
  /** The server exits with status 1 as soon as this file exists: a crash on cue. */
  crashFile?: string;
}

/**
 * server-everything over stdio behind a small wrapper script that can delay its
 * start, report its pid and crash on cue, without any timing in the test.
 */
export async function wrappedEverythingStdio(folder: string, options: WrapperOptions): Promise<McpTransportConfig> {
  const script = join(folder, "wrapped-server.mjs");
  await writeFile(
    script,
    [
      'import { existsSync, writeFileSync } from "node:fs";',
      'import { pathToFileURL } from "node:url";',
      "const [gate, pidFile, crashFile, entry, ...rest] = process.argv.slice(2);",
      'if (pidFile !== "-") writeFileSync(pidFile, String(process.pid));',
      'const crashed = () => crashFile !== "-" && existsSync(crashFile);',
      "if (crashed()) process.exit(1);",
      "setInterval(() => { if (crashed()) process.exit(1); }, 20).unref();",
      'while (gate !== "-" && !existsSync(gate)) await new Promise((resolve) => setTimeout(resolve, 20));',
      "process.argv = [process.argv[0], entry, ...rest];",
      "await import(pathToFileURL(entry).href);",
      "",
    ].join("\n"),
  );
  const args = [script, options.gateFile ?? "-", options.pidFile ?? "-", options.crashFile ?? "-", everythingEntry, "stdio"];
  return { type: "stdio", command: process.execPath, args, env: {} };
}

/** server-everything that starts only once `gateFile` exists. */
export function gatedEverythingStdio(folder: string, gateFile: string): Promise<McpTransportConfig> {
  return wrappedEverythingStdio(folder, { gateFile });
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
