/**
 * `cairn sandbox` (or `cairn sandbox status`): the sandbox in force and why;
 * `cairn sandbox disable` turns it off in the user's own config
 * (`"sandbox": "off"`, never a project's), `cairn sandbox enable` takes that
 * back (the default: on wherever bubblewrap works).
 */
import { commandSettings } from "./command-settings.js";
import type { Command } from "commander";
import type { ResolvedSettings } from "../config/index.js";

interface SandboxCommandOptions {
  json?: boolean;
  cwd?: string;
}

function resolve(flags: SandboxCommandOptions): Promise<ResolvedSettings | number> {
  return commandSettings({ flags: flags.cwd === undefined ? {} : { cwd: flags.cwd } });
}

async function status(flags: SandboxCommandOptions): Promise<number> {
  const settings = await resolve(flags);
  if (typeof settings === "number") return settings;
  const { checkBubblewrap } = await import("../security/sandbox.js");
  const bubblewrap = checkBubblewrap();
  const source = settings.sourceDetails["sandbox"] ?? settings.sources["sandbox"] ?? "";
  const mode = settings.sandboxUnavailable ? "unavailable" : settings.sandbox;
  if (flags.json === true) {
    process.stdout.write(
      `${JSON.stringify({ sandbox: mode, source, network: settings.sandboxNetwork, bubblewrap: bubblewrap.ok ? "usable" : bubblewrap.message, ...(settings.sandboxNotice ? { notice: settings.sandboxNotice } : {}) })}\n`,
    );
    return 0;
  }
  const lines = [
    `sandbox: ${mode}  (${source})`,
    `network in the sandbox: ${settings.sandboxNetwork ? "on (--sandbox-network or sandboxNetwork)" : "off, except for commands a Network(...) allow rule names, and the hosts Network(domain:…) rules allow (through cairn's proxy)"}`,
    `bubblewrap: ${bubblewrap.ok ? "usable" : bubblewrap.message}`,
  ];
  if (settings.sandboxNotice !== undefined) lines.push("", settings.sandboxNotice);
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

async function choose(on: boolean): Promise<number> {
  const { defaultUserConfigDir, userConfigPath, ConfigError } = await import("../config/index.js");
  const { setConfigKey } = await import("../config/update-config-file.js");
  const file = userConfigPath(defaultUserConfigDir(process.env));
  try {
    // The opt-in of earlier versions goes: the sandbox is on by default now, and off is "sandbox": "off".
    await setConfigKey(file, "sandboxOptIn", undefined);
    await setConfigKey(file, "sandbox", on ? undefined : "off");
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (!on) {
    process.stdout.write(`Recorded in ${file}: "sandbox": "off". Commands, hooks and MCP servers now run unconfined, with all your permissions, and every run says so. cairn sandbox enable turns it back on.\n`);
    return 0;
  }
  const { checkBubblewrap } = await import("../security/sandbox.js");
  const bubblewrap = checkBubblewrap();
  if (bubblewrap.ok) {
    process.stdout.write(
      `Recorded in ${file}: the sandbox is on (the default): commands, hooks and stdio MCP servers run in the workspace-write sandbox (no network; a Network(...) rule or --sandbox-network gives it). --sandbox off for one run.\n`,
    );
    return 0;
  }
  process.stdout.write(`Recorded in ${file}, but bubblewrap is not usable here: ${bubblewrap.message}. Until it is, every command that is not known to be read-only is asked, even with --yes.\n`);
  return 0;
}

export function registerSandboxCommand(program: Command): void {
  const sandbox = program
    .command("sandbox")
    .description("the sandbox in force and why; `disable` turns it off in your config, `enable` back on")
    .option("--cwd <dir>", "workspace folder (default: the current folder)")
    .option("--json", "print JSON")
    .action(async (flags: SandboxCommandOptions) => {
      process.exitCode = await status(flags);
    });
  sandbox
    .command("status")
    .description("the sandbox in force and why (the same as `cairn sandbox`)")
    .option("--cwd <dir>", "workspace folder (default: the current folder)")
    .option("--json", "print JSON")
    .action(async (_options: unknown, command: Command) => {
      process.exitCode = await status(command.optsWithGlobals<SandboxCommandOptions>());
    });
  sandbox
    .command("enable")
    .description("the sandbox on wherever bubblewrap works (the default): removes an off from your config")
    .action(async () => {
      process.exitCode = await choose(true);
    });
  sandbox
    .command("disable")
    .description('run commands unconfined: records "sandbox": "off" in your config')
    .action(async () => {
      process.exitCode = await choose(false);
    });
}
