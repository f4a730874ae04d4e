import { environmentWithSecrets } from "../security/secret-environment.js";
import type { Command } from "commander";
import { addTaskOptions } from "./run-command.js";
import { readableStack } from "./readable-stack.js";
import type { TaskCommandOptions } from "./run-command.js";

/**
 * `cairn acp`: serves the Agent Client Protocol on stdin/stdout for an editor
 * (Zed, JetBrains, Neovim). Only protocol messages go to stdout; everything
 * else is logged to stderr.
 */
export function registerAcpCommand(program: Command, version: () => string): void {
  addTaskOptions(program.command("acp").description("run as an Agent Client Protocol agent over stdio (for editors such as Zed)")).action(async (flags: TaskCommandOptions) => {
    const log = (text: string): void => {
      process.stderr.write(`cairn acp: ${text}\n`);
    };
    // stdout carries the protocol: stray library output must not corrupt it.
    console.log = console.info = console.debug = (...parts: unknown[]) => log(parts.map(String).join(" "));
    process.on("unhandledRejection", (reason) => log(`unexpected error: ${readableStack(reason)}`));
    let scenario;
    if (flags.scenario !== undefined) {
      const { loadScenario, ScenarioError } = await import("../llm/scripted/scenario.js");
      try {
        scenario = await loadScenario(flags.scenario);
      } catch (error) {
        if (error instanceof ScenarioError) {
          log(error.message);
          process.exitCode = 2;
          return;
        }
        throw error;
      }
    }
    // The editor stops its agent with a signal: end the connection so every task is
    // stopped the staged way (log saved, lock released, commands killed), then exit.
    const onSignal = (): void => {
      process.stdin.destroy();
      setTimeout(() => process.exit(130), 5000).unref();
    };
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
    const { serveAcp } = await import("../acp/agent.js");
    // An editor opens many folders: trusting each one silently would defeat folder trust.
    const { trust, ...rest } = flags;
    if (trust === true) log("--trust is ignored by cairn acp; trust a folder once with `cairn --trust` in it");
    await serveAcp({
      flags: rest,
      env: environmentWithSecrets(),
      version: version(),
      ...(scenario ? { scenario } : {}),
      // With cairn's sandbox on (#14), commands run sandboxed here, never in the editor's terminal.
      sandboxed: (settings) => {
        const mode = (settings as { sandbox?: unknown }).sandbox;
        return mode !== undefined && mode !== "off";
      },
      input: process.stdin,
      output: process.stdout,
      log,
    });
    process.exitCode = 0;
  });
}
