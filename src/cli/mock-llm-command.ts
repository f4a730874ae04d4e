import type { Command } from "commander";

interface MockLlmOptions {
  scenario: string;
  port?: string;
  log?: string;
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`--port must be a whole number from 0 to 65535, got "${text}"`);
  }
  return port;
}

/** `cairn mock-llm`: serves a scenario over HTTP until SIGINT or SIGTERM (see docs/scripted-llm.md). */
export function registerMockLlmCommand(program: Command): void {
  program
    .command("mock-llm")
    .description("Run cairn's scripted LLM server (Anthropic and OpenAI streaming APIs) from a scenario file")
    .requiredOption("--scenario <file>", "scenario JSON file: the turns to answer, in order")
    .option("--port <number>", "port on 127.0.0.1 (default: any free port)")
    .option("--log <file>", "append every request body to this file as one JSON line")
    .action(async (options: MockLlmOptions) => {
      const { loadScenario } = await import("../llm/scripted/scenario.js");
      const { startScriptedServer } = await import("../llm/scripted/server.js");
      const scenario = await loadScenario(options.scenario);
      const server = await startScriptedServer({
        scenario,
        port: parsePort(options.port),
        ...(options.log === undefined ? {} : { logFile: options.log }),
      });
      process.stdout.write(`listening on ${server.url}\n`);
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          resolve();
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
      await server.close();
    });
}
