/**
 * How cairn starts every child process (commands, hooks, stdio MCP servers):
 * with the scrubbed environment, and under the sandbox when one is in force.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { scrubEnvironment } from "./child-environment.js";
import { environmentWithSecrets } from "./secret-environment.js";
import { bubblewrapOptions, checkBubblewrap, SandboxUnavailableError, type SandboxPlan } from "./sandbox.js";
import type { SandboxMode } from "./security-decision.js";
import type { DomainProxy } from "./network-proxy.js";
import { bridgePort, proxyEnvironment } from "./proxy-bridge.js";

export interface Launch {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** To call when the process has ended: frees the sandbox's placeholders; returns what it had to put back (a protected link the process replaced). */
  release: () => string[];
  /** Tracked files the sandbox hides git's objects for (their content is in git's history). */
  hiddenHistory?: string[];
  /** The hosts cairn's network proxy refused to this process so far (present when it went through the proxy). */
  refusedHosts?: () => string[];
}

export interface PreparedSandbox {
  plan: SandboxPlan;
  release: () => string[];
  trackedSecrets: string[];
  /** The network proxy this process reaches through the bridge (`proxy` asked for, #30); `release` closes it. */
  proxy?: { server: DomainProxy; bridge: { program: string; script: string } };
}

export interface SandboxLauncher {
  mode: Exclude<SandboxMode, "off">;
  workspace: string;
  /** The sandbox's network setting (--sandbox-network). */
  network: boolean;
  /**
   * The plan for one process, made when it starts (the workspace changes between starts). `visible`:
   * files it runs that stay readable even inside a hidden folder (a user's hook script in `~/.claude/hooks/`).
   */
  prepare(options: { longLived: boolean; network: boolean; proxy?: boolean; program: string; visible?: readonly string[] }): PreparedSandbox;
  /** What a process is started through to join the loopback network the commands share (`nsenter … --`); undefined where there is none. */
  sharedLoopback?(): string[] | undefined;
  /** Whether a shell command line gets the whole network, or the hosts the proxy allows (Network rules, network-rules.ts); default `network`. */
  commandNetwork?(command: string): { network: boolean; proxy: boolean };
}

export interface LaunchPolicy {
  /** Variable names the user allows through although they look secret. */
  allowEnv: readonly string[];
  /** Variables the settings set for every child (Claude Code's `env`), after scrubbing. */
  environment?: Readonly<Record<string, string>>;
  /** The environment children start from, before scrubbing (an SDK caller's `env`); default: this process's. */
  baseEnvironment?: NodeJS.ProcessEnv;
  sandbox: SandboxLauncher | undefined;
}

/** Past this many bytes of arguments, bubblewrap reads them from a file (`--args`): a workspace can hide any number of files. */
const argumentsInline = 64 * 1024;

/** `program args` as cairn starts it; `extraEnv` (a server's configured `env`) is added after scrubbing. */
export function launchProcess(options: {
  policy: LaunchPolicy | undefined;
  program: string;
  args: string[];
  cwd: string;
  baseEnv?: NodeJS.ProcessEnv;
  extraEnv?: Record<string, string>;
  /** The sandbox's network for this process (default the policy's). */
  network?: boolean;
  /** Without the network: reach it through cairn's proxy, for the hosts the Network domain rules allow (#30). */
  proxy?: boolean;
  /** A server that runs for the whole session (no placeholders: they would stand in the workspace all along). */
  longLived?: boolean;
  /** Files the process runs that must stay readable in the sandbox (the scripts of the user's own hooks), wherever they are. */
  visible?: readonly string[];
  /** Without the network and its proxy: in the loopback network this cairn's commands share (a background server reachable by later commands). */
  sharedLoopback?: boolean;
}): Launch {
  const base = options.baseEnv ?? options.policy?.baseEnvironment ?? environmentWithSecrets();
  const env = { ...scrubEnvironment(base, options.policy?.allowEnv ?? []), ...options.policy?.environment, ...options.extraEnv };
  const sandbox = options.policy?.sandbox;
  if (sandbox === undefined) return { file: options.program, args: options.args, env, release: () => [] };
  const usable = checkBubblewrap();
  if (!usable.ok) throw new SandboxUnavailableError(usable.message);
  const prepared = sandbox.prepare({
    longLived: options.longLived === true,
    network: options.network ?? sandbox.network,
    ...(options.proxy === true ? { proxy: true } : {}),
    program: options.program,
    ...(options.visible === undefined ? {} : { visible: options.visible }),
  });
  const proxy = prepared.proxy;
  // Through the proxy each process keeps a network of its own: its bridge listens on a fixed port there.
  const joined = options.sharedLoopback === true && !prepared.plan.network && proxy === undefined ? sandbox.sharedLoopback?.() : undefined;
  if (joined !== undefined) prepared.plan.sharedLoopback = true;
  // Through the proxy: the bridge runs first in the command's network namespace, then the command itself.
  const command = proxy === undefined ? [options.program, ...options.args] : [proxy.bridge.program, proxy.bridge.script, proxy.server.socketPath, String(bridgePort), options.program, ...options.args];
  if (proxy !== undefined) Object.assign(env, proxyEnvironment());
  const refused = proxy === undefined ? {} : { refusedHosts: () => proxy.server.refused() };
  const sandboxOptions = bubblewrapOptions(prepared.plan, options.cwd, command);
  const hiddenHistory = prepared.trackedSecrets.length > 0 ? { hiddenHistory: prepared.trackedSecrets } : {};
  if (sandboxOptions.reduce((total, arg) => total + arg.length + 1, 0) <= argumentsInline) {
    const [file, ...args] = [...(joined ?? []), "bwrap", ...sandboxOptions, "--", ...command] as [string, ...string[]];
    return { file, args, env, release: prepared.release, ...hiddenHistory, ...refused };
  }
  const folder = join(prepared.plan.emptyFile, "..", "arguments");
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, `${process.pid}-${randomBytes(6).toString("hex")}`);
  // bubblewrap reads options from the file; the command stays in its own arguments.
  writeFileSync(file, `${sandboxOptions.join("\0")}\0`, { mode: 0o600 });
  const [shell, ...args] = [...(joined ?? []), "/bin/sh", "-c", 'file="$1"; shift; exec bwrap --args 3 -- "$@" 3<"$file"', "cairn-sandbox", file, ...command] as [string, ...string[]];
  return {
    file: shell,
    args,
    env,
    release: () => {
      rmSync(file, { force: true });
      return prepared.release();
    },
    ...hiddenHistory,
    ...refused,
  };
}

/** `shell -c command` as cairn starts it. */
export function launchShell(options: { policy: LaunchPolicy | undefined; shell: string; command: string; cwd: string; network?: boolean }): Launch {
  const decided = options.network === undefined ? options.policy?.sandbox?.commandNetwork?.(options.command) : { network: options.network, proxy: false };
  const network = decided === undefined ? {} : { network: decided.network, ...(decided.proxy ? { proxy: true } : {}) };
  // A command whose network was not set apart (a preview's is) shares loopback with the others: it reaches a background server.
  return launchProcess({ policy: options.policy, program: options.shell, args: ["-c", options.command], cwd: options.cwd, ...network, sharedLoopback: options.network === undefined });
}
