/**
 * `cairn sandbox`: the sandbox in force and why; `cairn sandbox enable` opts
 * in once (the sandbox becomes the default wherever bubblewrap works);
 * `cairn sandbox disable` answers no (off, without the start notice). Both
 * write `sandboxOptIn` to the user's own config, never to a project's.
 */
import type { Command } from "commander";
import type { ResolvedSettings } from "../config/index.js";

interface SandboxCommandOptions {
  json?: boolean;
  cwd?: string;
}

async function resolve(flags: SandboxCommandOptions): Promise<ResolvedSettings | number> {
  const { resolveSettings, ConfigError } = await import("../config/index.js");
  try {
    return await resolveSettings({ flags: flags.cwd === undefined ? {} : { cwd: flags.cwd }, env: process.env, cwd: process.cwd() });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

async function status(flags: SandboxCommandOptions): Promise<number> {
  const settings = await resolve(flags);
  if (typeof settings === "number") return settings;
  const { checkBubblewrap } = await import("../security/sandbox.js");
  const bubblewrap = checkBubblewrap();
  const source = settings.sourceDetails["sandbox"] ?? settings.sources["sandbox"] ?? "";
  if (flags.json === true) {
    process.stdout.write(`${JSON.stringify({ sandbox: settings.sandbox, source, network: settings.sandboxNetwork, bubblewrap: bubblewrap.ok ? "usable" : bubblewrap.message, ...(settings.sandboxNotice ? { notice: settings.sandboxNotice } : {}) })}\n`);
    return 0;
  }
  const lines = [
    `sandbox: ${settings.sandbox}  (${source})`,
    `network in the sandbox: ${settings.sandboxNetwork ? "on (--sandbox-network or sandboxNetwork)" : "off, except for commands a Network(...) allow rule names"}`,
    `bubblewrap: ${bubblewrap.ok ? "usable" : bubblewrap.message}`,
  ];
  if (settings.sandboxNotice !== undefined) lines.push("", settings.sandboxNotice);
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

async function answer(flags: SandboxCommandOptions, optIn: boolean): Promise<number> {
  const { defaultUserConfigDir, userConfigPath, ConfigError } = await import("../config/index.js");
  const { setConfigKey } = await import("../config/update-config-file.js");
  const file = userConfigPath(defaultUserConfigDir(process.env));
  try {
    await setConfigKey(file, "sandboxOptIn", optIn);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (!optIn) {
    process.stdout.write(`Recorded in ${file}: the sandbox stays off by default, without the notice. Turn it on again with cairn sandbox enable.\n`);
    return 0;
  }
  const { checkBubblewrap } = await import("../security/sandbox.js");
  const bubblewrap = checkBubblewrap();
  if (bubblewrap.ok) {
    process.stdout.write(
      `Recorded in ${file}: commands, hooks and stdio MCP servers now run in the workspace-write sandbox by default (no network; a Network(...) rule or --sandbox-network gives it). --sandbox off for one run.\n`,
    );
    return 0;
  }
  process.stdout.write(`Recorded in ${file}, but bubblewrap is not usable here: ${bubblewrap.message}. Until it is, the sandbox stays off and cairn says so at each start.\n`);
  return 0;
}

export function registerSandboxCommand(program: Command): void {
  const sandbox = program
    .command("sandbox")
    .description("the sandbox in force and why; `enable` opts in once, `disable` keeps it off")
    .option("--cwd <dir>", "workspace folder (default: the current folder)")
    .option("--json", "print JSON")
    .action(async (flags: SandboxCommandOptions) => {
      process.exitCode = await status(flags);
    });
  sandbox
    .command("enable")
    .description("make the workspace-write sandbox the default wherever bubblewrap works (user config)")
    .action(async (_options: unknown, command: Command) => {
      process.exitCode = await answer(command.optsWithGlobals<SandboxCommandOptions>(), true);
    });
  sandbox
    .command("disable")
    .description("keep the sandbox off by default, without the start notice (user config)")
    .action(async (_options: unknown, command: Command) => {
      process.exitCode = await answer(command.optsWithGlobals<SandboxCommandOptions>(), false);
    });
}
