import type { Command } from "commander";
import { addTaskOptions } from "./run-command.js";
import type { TaskCommandOptions } from "./run-command.js";

/**
 * `cairn acp`: serves the Agent Client Protocol on stdin/stdout for an editor
 * (Zed, JetBrains, Neovim). Only protocol messages go to stdout; everything
 * else is logged to stderr.
 */
export function registerAcpCommand(program: Command, version: () => string): void {
  addTaskOptions(program.command("acp").description("run as an Agent Client Protocol agent over stdio (for editors such as Zed)")).action(
    async (flags: TaskCommandOptions) => {
      const log = (text: string): void => {
        process.stderr.write(`cairn acp: ${text}\n`);
      };
      // stdout carries the protocol: stray library output must not corrupt it.
      console.log = console.info = console.debug = (...parts: unknown[]) => log(parts.map(String).join(" "));
      process.on("unhandledRejection", (reason) => log(`unexpected error: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`));
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
      const { serveAcp } = await import("../acp/agent.js");
      const { trust: _trust, ...rest } = flags;
      await serveAcp({
        flags: rest,
        env: process.env,
        version: version(),
        ...(scenario ? { scenario } : {}),
        input: process.stdin,
        output: process.stdout,
        log,
      });
      process.exitCode = 0;
    },
  );
}
