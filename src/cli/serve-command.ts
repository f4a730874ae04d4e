/**
 * `cairn serve`: tasks over HTTP with a web UI (docs/server.md). Prints the
 * URL with its token, writes `<data dir>/server.json` (for `cairn attach`),
 * and on Ctrl-C stops its running tasks (resumable) before it exits.
 */
import type { Command } from "commander";
import { CommanderError } from "commander";
import { resolve as resolvePath } from "node:path";
import type { TaskOptions } from "../sdk/options.js";
import type { ProviderName, ToolProtocol } from "../config/index.js";
import type { TaskRegistry } from "../server/task-registry.js";
import { defaultMcpCommandContext } from "./mcp-commands.js";

/** The task defaults `cairn serve` and `cairn mcp serve` share: where tasks are kept and how new ones run. */
export interface TaskDefaultFlags {
  dataDir?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  profile?: string;
  toolProtocol?: string;
  scenario?: string;
  sandbox?: "workspace-write" | "read-only" | "off";
  checkpoints?: boolean;
  trust?: boolean;
  maxCost?: string;
  maxTime?: string;
}

interface ServeFlags extends TaskDefaultFlags {
  port: string;
  host: string;
  allowRemote?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  redis?: string;
  queue?: string;
}

/** The options of the task defaults (`TaskDefaultFlags`). */
export function addTaskDefaultOptions(command: Command): Command {
  return command
    .option("--data-dir <dir>", "where tasks and checkpoints are kept (default $CAIRN_HOME or ~/.cairn)")
    .option("--provider <name>", "default provider of new tasks")
    .option("--model <id>", "default model of new tasks")
    .option("--base-url <url>", "API base URL for the default provider")
    .option("--api-key <key>", "API key (default from the environment, as `cairn run`)")
    .option("--profile <name>", "a named provider profile from the config")
    .option("--tool-protocol <protocol>", "xml | native")
    .option("--scenario <file>", "scenario file for --provider mock (the scripted model)")
    .option("--sandbox <mode>", "workspace-write | read-only | off: the OS sandbox of every task's commands")
    .option("--no-checkpoints", "keep no checkpoints of the workspaces")
    .option("--trust", "trust the workspaces' project configuration (as `cairn run --trust`)")
    .option("--max-cost <usd>", "stop each task after this cost in US dollars")
    .option("--max-time <duration>", "stop each task after this long (e.g. 10m)");
}

export function registerServeCommand(program: Command): void {
  const command = program
    .command("serve")
    .description("run tasks in a local server with a web UI; clients (browsers, `cairn attach`, programs) follow and steer them")
    .option("--port <n>", "port to listen on (0: any free port)", "4517")
    .option("--host <address>", "address to listen on (default loopback only)", "127.0.0.1")
    .option("--allow-remote", "allow --host beyond loopback: anyone who reaches the port with the token can run commands")
    .option("--tls-cert <file>", "serve HTTPS with this certificate (PEM)")
    .option("--tls-key <file>", "the certificate's private key (PEM)")
    .option("--redis <url>", "show this fleet's queue in the web UI")
    .option("--queue <name>", "the fleet's queue name");
  addTaskDefaultOptions(command).action(async (flags: ServeFlags) => {
    process.exitCode = await serve(flags);
  });
}

function usage(message: string): never {
  process.stderr.write(`cairn serve: ${message}\n`);
  throw new CommanderError(2, "cairn.serve", message);
}

async function serve(flags: ServeFlags): Promise<number> {
  const { startCairnServer } = await import("../server/http-server.js");
  const { isLoopback, newToken } = await import("../server/request-guard.js");
  const { writeServerFile, removeServerFile, networkNames } = await import("../server/server-file.js");
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) usage(`--port must be a port number, not "${flags.port}"`);
  if (!isLoopback(flags.host) && flags.allowRemote !== true)
    usage(`--host ${flags.host} reaches beyond this machine; add --allow-remote if you mean it (anyone who can reach the port and has the token can run commands in your workspaces)`);
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined)) usage("give both --tls-cert and --tls-key");
  const tls = flags.tlsCert === undefined ? undefined : await readTls(flags.tlsCert, flags.tlsKey!);
  const { registry, dataDir } = await openRegistry(flags);
  const { environmentWithSecrets } = await import("../security/secret-environment.js");
  // Read where the launcher put the secrets it took out of the environment: a fixed token keeps browsers' cookies valid across restarts.
  const token = environmentWithSecrets()["CAIRN_SERVER_TOKEN"] || newToken();
  const fleet = flags.redis === undefined ? undefined : await openFleetView(flags.redis, flags.queue);
  const server = await startCairnServer({
    registry,
    host: flags.host,
    port,
    token,
    ...(tls === undefined ? {} : { tls }),
    ...(isLoopback(flags.host) ? {} : { extraHosts: networkNames() }),
    ...(fleet === undefined ? {} : { fleet: fleet.status }),
  });
  await writeServerFile(dataDir, { url: server.url, token, pid: process.pid });
  if (!isLoopback(flags.host))
    process.stderr.write(
      `cairn serve: warning: listening on ${flags.host}, beyond this machine. Keep the token secret${tls === undefined ? " and prefer --tls-cert/--tls-key: without TLS the token crosses the network in clear" : ""}.\n`,
    );
  process.stdout.write(`cairn serve: ${server.url}/?token=${token}\n(Ctrl-C stops the server; running tasks stop and can be resumed)\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  process.stderr.write("cairn serve: stopping; running tasks are aborted and can be resumed\n");
  await server.close();
  await fleet?.close();
  await removeServerFile(dataDir, process.pid);
  return 0;
}

/** The registry of a server's tasks, in the data folder the flags name (made if need be). */
export async function openRegistry(flags: TaskDefaultFlags): Promise<{ registry: TaskRegistry; dataDir: string }> {
  const { TaskRegistry } = await import("../server/task-registry.js");
  const dataDir = flags.dataDir === undefined ? defaultMcpCommandContext().dataDir() : resolvePath(flags.dataDir);
  const { ensureDataFolder } = await import("../store/data-folder.js");
  await ensureDataFolder(dataDir);
  return { registry: new TaskRegistry({ ...taskDefaults(flags), dataDir }), dataDir };
}

function taskDefaults(flags: TaskDefaultFlags): TaskOptions {
  const options: TaskOptions = {};
  if (flags.provider !== undefined) options.provider = flags.provider as ProviderName;
  if (flags.model !== undefined) options.model = flags.model;
  if (flags.baseUrl !== undefined) options.baseUrl = flags.baseUrl;
  if (flags.apiKey !== undefined) options.apiKey = flags.apiKey;
  if (flags.profile !== undefined) options.profile = flags.profile;
  if (flags.toolProtocol !== undefined) options.toolProtocol = flags.toolProtocol as ToolProtocol;
  if (flags.scenario !== undefined) options.scenario = resolvePath(flags.scenario);
  if (flags.sandbox !== undefined) options.sandbox = flags.sandbox;
  if (flags.checkpoints === false) options.checkpoints = false;
  if (flags.trust === true) options.trust = true;
  const budget = { ...(flags.maxCost === undefined ? {} : { maxCost: Number(flags.maxCost) }), ...(flags.maxTime === undefined ? {} : { maxTime: flags.maxTime }) };
  if (Object.keys(budget).length > 0) options.budget = budget;
  return options;
}

async function readTls(certFile: string, keyFile: string): Promise<{ cert: Buffer; key: Buffer }> {
  const { readFile } = await import("node:fs/promises");
  try {
    return { cert: await readFile(certFile), key: await readFile(keyFile) };
  } catch (error) {
    usage(`cannot read the TLS certificate or key: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function openFleetView(redis: string, queueName: string | undefined): Promise<{ status: () => Promise<unknown>; close: () => Promise<void> }> {
  const { openFleet } = await import("../fleet/fleet-context.js");
  const { queueStatus } = await import("../fleet/queue-inspect.js");
  const { environmentWithSecrets } = await import("../security/secret-environment.js");
  const { Queue } = await import("bullmq");
  const context = await openFleet({ redisFlag: redis, queueFlag: queueName, env: environmentWithSecrets(), patient: true });
  const queue = new Queue(context.queueName, { connection: context.redis });
  return {
    status: async () => {
      const status = await queueStatus(queue, context);
      return { queue: context.queueName, counts: status.counts, waiting: status.waiting, running: status.running.map(({ patch: _patch, ...rest }) => rest) };
    },
    close: async () => {
      await queue.close();
      await context.close();
    },
  };
}
