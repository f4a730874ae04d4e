/**
 * `cairn config` (or `cairn settings`): the merged settings of every file and
 * where each value came from, API keys masked. Exits 2 when a setting is wrong
 * or the key is missing, so it doubles as a "is my setup ready?" check.
 */
import { environmentWithSecrets } from "../security/secret-environment.js";
import { CommanderError, type Command } from "commander";
import type { ResolvedSettings } from "../config/index.js";

interface ConfigCommandOptions {
  json?: boolean;
  cwd?: string;
  profile?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
}

function fail(message: string): never {
  process.stderr.write(`cairn: ${message}\n`);
  throw new CommanderError(2, "cairn.config", message);
}

export function registerConfigCommand(program: Command): void {
  program
    .command("config")
    .alias("settings")
    .description("show the merged settings of every file and where each value came from (keys masked)")
    .option("--json", "print them as JSON")
    .option("--cwd <dir>", "project folder whose .cairn/config.json applies")
    .option("--profile <name>", "show the settings with this provider profile")
    .option("--provider <name>", "anthropic, openai, openai-responses, gemini, azure, bedrock, vertex or mock")
    .option("--model <id>", "model id")
    .option("--base-url <url>", "provider address")
    .action(async (options: ConfigCommandOptions) => {
      // Loaded here so `cairn --version` and `--help` stay fast.
      const { ConfigError, requireApiKey, resolveSettings } = await import("../config/index.js");
      let settings: ResolvedSettings;
      try {
        const { json: _json, ...flags } = options;
        settings = await resolveSettings({ flags, env: environmentWithSecrets(), cwd: process.cwd() });
      } catch (error) {
        if (error instanceof ConfigError) fail(error.message);
        throw error;
      }
      let problem: string | undefined;
      try {
        requireApiKey(settings);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        problem = error.message;
      }
      const [{ discoverSettingsHooks }, { jsonReport, textReport }] = await Promise.all([import("../session/hook-wiring.js"), import("./config-report.js")]);
      const { hooks } = await discoverSettingsHooks(settings);
      process.stdout.write(options.json === true ? jsonReport(settings, hooks, problem) : textReport(settings, hooks));
      if (problem !== undefined) fail(problem);
    });
}
