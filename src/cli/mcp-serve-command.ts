/**
 * `cairn mcp serve`: cairn as an MCP server (docs/mcp.md, "cairn as an MCP server"). Another agent or tool starts
 * tasks in folders, follows them, answers their asks and takes their results and patches, through the same
 * task registry as `cairn serve`. Over stdio (the default) stdout carries nothing but the protocol; with
 * `--http`, streamable HTTP on loopback with a token, as `cairn serve`. The server's code loads only here.
 */
import type { Command } from "commander";
import { CommanderError } from "commander";
import { Writable } from "node:stream";
import { addTaskDefaultOptions, openRegistry, type TaskDefaultFlags } from "./serve-command.js";

interface McpServeFlags extends TaskDefaultFlags {
  http?: boolean;
  port: string;
  host: string;
  allowRemote?: boolean;
}

export function registerMcpServeCommand(mcp: Command, version: () => string): void {
  const command = mcp
    .command("serve")
    .description("run cairn as an MCP server: other agents start tasks, follow them, answer their asks and take their patches (stdio, or --http)")
    .option("--http", "serve streamable HTTP instead of stdio (a token is needed: printed on stderr, or CAIRN_SERVER_TOKEN)")
    .option("--port <n>", "with --http: port to listen on (0: any free port)", "4518")
    .option("--host <address>", "with --http: address to listen on (default loopback only)", "127.0.0.1")
    .option("--allow-remote", "with --http: allow --host beyond loopback (anyone who reaches the port with the token can run commands)");
  addTaskDefaultOptions(command).action(async (flags: McpServeFlags) => {
    process.exitCode = flags.http === true ? await serveHttp(flags, version()) : await serveStdio(flags, version());
  });
}

function usage(message: string): never {
  process.stderr.write(`cairn mcp serve: ${message}\n`);
  throw new CommanderError(2, "cairn.mcp.serve", message);
}

async function serveStdio(flags: McpServeFlags, version: string): Promise<number> {
  // Only the protocol goes to stdout: whatever else would be written there goes to stderr.
  const protocolWrite = process.stdout.write.bind(process.stdout);
  const protocolOut = new Writable({ write: (chunk: Buffer, _encoding, done) => void protocolWrite(chunk, (error) => done(error ?? null)) });
  Object.assign(process.stdout, { write: process.stderr.write.bind(process.stderr) });
  const [{ StdioServerTransport }, { createTaskMcpServer }] = await Promise.all([import("@modelcontextprotocol/sdk/server/stdio.js"), import("../server/mcp-tools.js")]);
  const { registry } = await openRegistry(flags);
  const server = createTaskMcpServer(registry, version);
  await server.connect(new StdioServerTransport(process.stdin, protocolOut));
  // The client closing our stdin is the end of the session.
  await untilStopped((stop) => process.stdin.once("end", stop));
  await registry.close();
  await server.close();
  // Whatever a task left open (a server of its own, a timer) does not keep a finished session alive.
  setTimeout(() => process.exit(), 2_000).unref();
  return 0;
}

async function serveHttp(flags: McpServeFlags, version: string): Promise<number> {
  const { isLoopback, newToken } = await import("../server/request-guard.js");
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) usage(`--port must be a port number, not "${flags.port}"`);
  if (!isLoopback(flags.host) && flags.allowRemote !== true)
    usage(`--host ${flags.host} reaches beyond this machine; add --allow-remote if you mean it (anyone who can reach the port and has the token can run commands in your workspaces)`);
  const { registry } = await openRegistry(flags);
  const { environmentWithSecrets } = await import("../security/secret-environment.js");
  const token = environmentWithSecrets()["CAIRN_SERVER_TOKEN"] || newToken();
  const { startMcpHttpServer } = await import("../server/mcp-http.js");
  const server = await startMcpHttpServer({ registry, host: flags.host, port, token, version });
  process.stderr.write(`cairn mcp serve: ${server.url}\n  token: ${token}   (send "Authorization: Bearer <token>"; Ctrl-C stops the server, running tasks stop and can be resumed)\n`);
  await untilStopped();
  process.stderr.write("cairn mcp serve: stopping; running tasks are aborted and can be resumed\n");
  await server.close();
  return 0;
}

/** Resolves on Ctrl-C or SIGTERM (`also` may arrange another way to end). */
function untilStopped(also?: (stop: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    also?.(stop);
  });
}
