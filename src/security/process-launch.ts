/**
 * How cairn starts every child process (commands, hooks, stdio MCP servers):
 * with the scrubbed environment, and under the sandbox when one is in force.
 */
import { scrubEnvironment } from "./child-environment.js";
import { bubblewrapArguments, checkBubblewrap, SandboxUnavailableError, type SandboxSpec } from "./sandbox.js";

export interface Launch {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

export interface LaunchPolicy {
  /** Variable names the user allows through although they look secret. */
  allowEnv: readonly string[];
  /** The sandbox, or undefined for none. `masked()` is asked at each start (ignored files change). */
  sandbox:
    | (Omit<SandboxSpec, "masked" | "readOnly" | "blockedFolders"> & {
        masked(): string[];
        readOnly(): string[];
        blockedFolders?(): string[];
        /** Whether a shell command line gets the network (Network rules, src/security/network-rules.ts); default `network`. */
        commandNetwork?(command: string): boolean;
      })
    | undefined;
}

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
}): Launch {
  const env = { ...scrubEnvironment(options.baseEnv ?? process.env, options.policy?.allowEnv ?? []), ...options.extraEnv };
  const sandbox = options.policy?.sandbox;
  if (sandbox === undefined) return { file: options.program, args: options.args, env };
  const usable = checkBubblewrap();
  if (!usable.ok) throw new SandboxUnavailableError(usable.message);
  const spec: SandboxSpec = {
    mode: sandbox.mode,
    workspace: sandbox.workspace,
    network: options.network ?? sandbox.network,
    masked: sandbox.masked(),
    readOnly: sandbox.readOnly(),
    blockedFolders: sandbox.blockedFolders?.() ?? [],
    ...(sandbox.writable === undefined ? {} : { writable: sandbox.writable }),
  };
  return { file: "bwrap", args: bubblewrapArguments(spec, options.cwd, options.program, options.args), env };
}

/** `shell -c command` as cairn starts it. */
export function launchShell(options: { policy: LaunchPolicy | undefined; shell: string; command: string; cwd: string }): Launch {
  const network = options.policy?.sandbox?.commandNetwork?.(options.command);
  return launchProcess({ policy: options.policy, program: options.shell, args: ["-c", options.command], cwd: options.cwd, ...(network === undefined ? {} : { network }) });
}
