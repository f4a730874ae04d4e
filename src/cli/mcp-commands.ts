/**
 * `cairn mcp list|add|remove|approve|login|logout`: the MCP servers in the user's `mcp.json`
 * and Claude Code's `~/.claude.json` (and the project's `.mcp.json` and
 * `.cairn/mcp.json` once the folder is trusted).
 */
import { CommanderError, Option } from "commander";
import type { Command } from "commander";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { defaultDataDir, defaultUserConfigDir } from "../config/paths.js";
import { defaultClaudeStateFile, defaultClaudeUserDir } from "../config/settings-files.js";
import { isTrusted } from "../config/trust.js";
import type { McpServerConfig } from "../mcp/config.js";
import type { McpServerEntry } from "../mcp/config-edit.js";
import type { McpHub, McpHubOptions, McpServerState } from "../mcp/hub.js";
import type { SignInState } from "../mcp/oauth/credential-store.js";
import type { ToolDescriptionReview } from "../mcp/trust-store.js";
import { registerMcpServeCommand } from "./mcp-serve-command.js";
import { registerSignInCommands } from "./mcp-sign-in-commands.js";

export interface McpCommandContext {
  userConfigDir(): string;
  dataDir(): string;
  workspace(): string;
  /** Claude Code's state file (`~/.claude.json`), whose MCP servers count too; none: not read. */
  claudeStateFile?(): string;
}

/** The folders a plain `cairn mcp ...` uses (no flags: the XDG config folder, `CAIRN_HOME` or `~/.cairn`). */
export function defaultMcpCommandContext(): McpCommandContext {
  return {
    userConfigDir: () => defaultUserConfigDir(),
    dataDir: () => {
      const home = process.env["CAIRN_HOME"];
      return home === undefined || home === "" ? defaultDataDir() : resolve(home);
    },
    workspace: () => process.cwd(),
    claudeStateFile: () => defaultClaudeStateFile(process.env),
  };
}

/** The files `cairn mcp list` and `approve` read: the user's, the project's (once trusted) and Claude Code's. */
async function configuredServers(context: McpCommandContext): Promise<{ servers: McpServerConfig[]; warnings: string[]; projectTrusted: boolean }> {
  const userConfigDir = context.userConfigDir();
  const workspace = context.workspace();
  const projectTrusted = await isTrusted(workspace, userConfigDir);
  // Loaded only when a command runs, so `cairn --help` and other commands start fast.
  const { loadMcpConfig } = await import("../mcp/config.js");
  const claudeStateFile = context.claudeStateFile?.();
  const { enabledPlugins } = await import("../plugins/plugin-contributions.js");
  const plugins = await enabledPlugins({ dataDir: context.dataDir(), claudeUserDir: defaultClaudeUserDir(process.env), cwd: workspace, projectTrusted });
  const loaded = await guarded(() => loadMcpConfig({ userConfigDir, workspace, projectTrusted, ...(claudeStateFile === undefined ? {} : { claudeStateFile }), pluginServers: plugins.mcpServers }));
  return { ...loaded, projectTrusted };
}

function clientVersion(): string {
  try {
    const raw = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    return (JSON.parse(raw) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
}

/** The SDK is loaded only when a command talks to servers, so `cairn --help` stays quick. */
async function createHub(options: McpHubOptions): Promise<McpHub> {
  const { McpHub } = await import("../mcp/hub.js");
  return new McpHub(options);
}

function fail(message: string): never {
  process.stderr.write(`cairn: ${message}\n`);
  throw new CommanderError(2, "cairn.mcp", message);
}

async function guarded<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    const { McpConfigError } = await import("../mcp/config.js");
    if (error instanceof McpConfigError) fail(error.message);
    throw error;
  }
}

function collectPair(flag: string) {
  return (value: string, previous: Record<string, string>): Record<string, string> => {
    const split = value.indexOf("=");
    if (split <= 0) fail(`${flag} expects KEY=VALUE, got "${value}"`);
    return { ...previous, [value.slice(0, split)]: value.slice(split + 1) };
  };
}

/** Never prints env values or headers: they often hold secrets. */
function describeTransport(server: McpServerConfig): string {
  const transport = server.transport;
  if (transport.type === "stdio") return `stdio: ${[transport.command, ...transport.args].join(" ")}`;
  return `${transport.type}: ${transport.url}`;
}

function firstLine(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}

function reviewNote(review: ToolDescriptionReview | undefined): string | undefined {
  if (review === undefined) return undefined;
  if (review.kind === "new_server") return "tools not approved yet: check them, then run `cairn mcp approve <name>`";
  const changed = [...review.changed, ...review.added].map((tool) => tool.name).join(", ");
  return `WARNING: tools changed since you approved them (${changed}); check them, then run \`cairn mcp approve <name>\``;
}

/** A remote server's sign-in: what was stored, overridden by a refusal seen while connecting. */
async function signInStates(dataDir: string, servers: McpServerConfig[], states: McpServerState[]): Promise<Map<string, SignInState>> {
  const { storedSignInState } = await import("../mcp/oauth/credential-store.js");
  const result = new Map<string, SignInState>();
  for (const server of servers) {
    const refused = states.find((candidate) => candidate.name === server.name)?.signInRequired === true;
    const stored = await storedSignInState(dataDir, server);
    const state = refused ? (stored === "signed in" ? "expired" : "needs sign-in") : stored;
    if (state !== undefined) result.set(server.name, state);
  }
  return result;
}

function textReport(servers: McpServerConfig[], states: McpServerState[], reviews: ToolDescriptionReview[], signIns: Map<string, SignInState>): string {
  const lines: string[] = [];
  for (const server of servers) {
    const state = states.find((candidate) => candidate.name === server.name);
    const review = reviews.find((candidate) => candidate.server === server.name);
    lines.push(`${server.name}  (${describeTransport(server)})`, `  from: ${server.source}`);
    const signIn = signIns.get(server.name);
    if (signIn !== undefined) lines.push(`  sign-in: ${signIn}${signIn === "signed in" ? "" : ` (run: cairn mcp login ${server.name})`}`);
    if (state === undefined || state.status === "disabled") {
      lines.push("  status: disabled");
    } else if (state.status === "connected") {
      lines.push(`  status: connected, ${state.tools.length} tool${state.tools.length === 1 ? "" : "s"}`);
      for (const tool of state.tools) {
        lines.push(`    ${tool.name}${tool.autoApprove ? " [auto-approve]" : ""}  ${firstLine(tool.description)}`);
      }
      const note = reviewNote(review);
      if (note !== undefined) lines.push(`  ${note.replace("<name>", server.name)}`);
    } else if (state.status === "waiting") {
      lines.push(`  status: not connected`, ...(state.error ?? "").split("\n").map((line) => `    ${line}`));
    } else {
      lines.push("  status: still connecting (try a longer --timeout)");
    }
    lines.push("");
  }
  return lines.join("\n");
}

async function listServers(context: McpCommandContext, options: { timeout: string; json?: boolean }): Promise<void> {
  const timeoutSeconds = Number(options.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) fail(`--timeout expects a positive number of seconds, got "${options.timeout}"`);
  const { servers, warnings, projectTrusted } = await configuredServers(context);
  for (const warning of warnings) process.stderr.write(`cairn: warning: ${warning}\n`);
  if (servers.length === 0 && options.json !== true) {
    const { userMcpConfigPath } = await import("../mcp/config.js");
    const claudeStateFile = context.claudeStateFile?.();
    const places = [userMcpConfigPath(context.userConfigDir()), ...(claudeStateFile === undefined ? [] : [claudeStateFile]), ...(projectTrusted ? ["the project's .mcp.json and .cairn/mcp.json"] : [])];
    process.stdout.write(`No MCP servers configured (looked in ${places.join(", ")}).\nAdd one with: cairn mcp add <name> <command-or-url> [args...]\n`);
    return;
  }
  // One try per server: a listing must not keep retrying in the background.
  const hub = await createHub({ servers, dataDir: context.dataDir(), clientVersion: clientVersion(), reconnect: { initialDelayMs: 3_600_000 } });
  try {
    hub.start();
    await hub.waitForServers(timeoutSeconds * 1000, new AbortController().signal);
    const states = hub.serverStates();
    const reviews = await hub.reviewToolDescriptions();
    const signIns = await signInStates(context.dataDir(), servers, states);
    if (options.json === true) {
      const report = servers.map((server) => {
        const state = states.find((candidate) => candidate.name === server.name);
        return {
          name: server.name,
          source: server.source,
          transport: describeTransport(server),
          status: state?.status ?? "disabled",
          ...(state?.error === undefined ? {} : { error: state.error }),
          ...(signIns.has(server.name) ? { signIn: signIns.get(server.name) } : {}),
          tools: (state?.tools ?? []).map((tool) => ({ name: tool.name, description: tool.description, autoApprove: tool.autoApprove })),
          review: reviews.find((candidate) => candidate.server === server.name)?.kind ?? "approved",
        };
      });
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } else {
      process.stdout.write(textReport(servers, states, reviews, signIns));
    }
  } finally {
    await hub.close();
  }
}

interface AddOptions {
  env: Record<string, string>;
  header: Record<string, string>;
  transport?: "stdio" | "streamableHttp" | "sse";
  timeout?: string;
  cwd?: string;
  autoApprove?: string[];
  force?: boolean;
}

function entryFor(target: string, args: string[], options: AddOptions): McpServerEntry {
  const remote = options.transport === "streamableHttp" || options.transport === "sse" || (options.transport === undefined && /^https?:\/\//.test(target));
  const entry: McpServerEntry = {};
  if (remote) {
    if (args.length > 0) fail(`a remote server takes no arguments after its URL (got: ${args.join(" ")})`);
    if (Object.keys(options.env).length > 0 || options.cwd !== undefined) fail("--env and --cwd are for local (stdio) servers");
    entry["url"] = target;
    entry["type"] = options.transport ?? "streamableHttp";
    if (Object.keys(options.header).length > 0) entry["headers"] = options.header;
  } else {
    if (Object.keys(options.header).length > 0) fail("--header is for remote servers (a URL)");
    entry["command"] = target;
    if (args.length > 0) entry["args"] = args;
    if (Object.keys(options.env).length > 0) entry["env"] = options.env;
    if (options.cwd !== undefined) entry["cwd"] = resolve(options.cwd);
  }
  if (options.timeout !== undefined) entry["timeout"] = Number(options.timeout);
  if (options.autoApprove !== undefined && options.autoApprove.length > 0) entry["autoApprove"] = options.autoApprove;
  return entry;
}

async function approveServer(context: McpCommandContext, name: string): Promise<void> {
  const { servers } = await configuredServers(context);
  const server = servers.find((candidate) => candidate.name === name);
  if (server === undefined) fail(`there is no MCP server named "${name}" (see cairn mcp list)`);
  const hub = await createHub({ servers: [{ ...server, disabled: false }], dataDir: context.dataDir(), clientVersion: clientVersion(), reconnect: { initialDelayMs: 3_600_000 } });
  try {
    hub.start();
    await hub.waitForServers(30_000, new AbortController().signal);
    const state = hub.serverStates()[0];
    if (state?.status !== "connected") fail(`cannot approve "${name}": it is not connected${state?.error === undefined ? "" : `\n${state.error}`}`);
    for (const tool of state.tools) {
      process.stdout.write(`${tool.name}\n  ${tool.description.trim().replace(/\n/g, "\n  ")}\n  input: ${JSON.stringify(tool.inputSchema)}\n`);
    }
    await hub.approve(name);
    process.stdout.write(`Approved the ${state.tools.length} tools of "${name}" as shown above.\n`);
  } finally {
    await hub.close();
  }
}

export function registerMcpCommands(program: Command, context: McpCommandContext): void {
  const mcp = program.command("mcp").description("Manage MCP (Model Context Protocol) servers");

  mcp
    .command("list")
    .description("Show each configured server, whether it connects, and its tools")
    .option("--timeout <seconds>", "how long to wait for servers to connect", "5")
    .option("--json", "print JSON")
    .action((options: { timeout: string; json?: boolean }) => listServers(context, options));

  mcp
    .command("add")
    .description("Add a server to the user's mcp.json (put -- before a command whose arguments start with -)")
    .argument("<name>", "name of the server")
    .argument("<command-or-url>", "program to start (stdio), or http(s) URL of a remote server")
    .argument("[args...]", "arguments of the program")
    .option("-e, --env <KEY=VALUE>", "environment variable for the program (repeatable)", collectPair("--env"), {})
    .option("-H, --header <KEY=VALUE>", "HTTP header for a remote server (repeatable)", collectPair("--header"), {})
    .addOption(new Option("-t, --transport <type>", "transport (default: stdio for a command, streamableHttp for a URL)").choices(["stdio", "streamableHttp", "sse"]))
    .option("--timeout <seconds>", "time allowed for one tool call")
    .option("--cwd <folder>", "working folder of the program")
    .option("--auto-approve <tools...>", "tools that run without asking")
    .option("-f, --force", "replace a server of the same name")
    .showHelpAfterError("(when the server's own arguments start with -, put -- before its command: cairn mcp add files -- npx -y some-server)")
    .action(async (name: string, target: string, args: string[], options: AddOptions) => {
      const { userMcpConfigPath } = await import("../mcp/config.js");
      const { addServerToConfig } = await import("../mcp/config-edit.js");
      const file = userMcpConfigPath(context.userConfigDir());
      const entry = entryFor(target, args, options);
      const { replaced } = await guarded(() => addServerToConfig({ file, name, entry, replace: options.force === true }));
      process.stdout.write(`${replaced ? "Replaced" : "Added"} MCP server "${name}" in ${file}\n`);
    });

  mcp
    .command("remove")
    .description("Remove a server from the user's mcp.json")
    .argument("<name>", "name of the server")
    .action(async (name: string) => {
      const { userMcpConfigPath } = await import("../mcp/config.js");
      const { removeServerFromConfig } = await import("../mcp/config-edit.js");
      const file = userMcpConfigPath(context.userConfigDir());
      await guarded(() => removeServerFromConfig({ file, name }));
      process.stdout.write(`Removed MCP server "${name}" from ${file}\n`);
    });

  mcp
    .command("approve")
    .description("Show a server's tools in full and record them as approved")
    .argument("<name>", "name of the server")
    .action((name: string) => approveServer(context, name));

  registerSignInCommands(mcp, {
    dataDir: () => context.dataDir(),
    fail,
    server: async (name) => {
      const { servers } = await configuredServers(context);
      const server = servers.find((candidate) => candidate.name === name);
      if (server === undefined) fail(`there is no MCP server named "${name}" (see cairn mcp list)`);
      return server;
    },
  });
  registerMcpServeCommand(mcp, clientVersion);
}
