import { Command, CommanderError } from "commander";
import { readFileSync } from "node:fs";
import { registerConfigCommand } from "./config-command.js";
import { registerDemoCommand } from "./demo-command.js";
import { addTaskOptions, registerRunCommand, runDefault } from "./run-command.js";
import type { TaskCommandOptions } from "./run-command.js";
import { addHabitOptions, runHabit } from "./habits.js";
import type { HabitFlags } from "./habits.js";
import { defaultMcpCommandContext, registerMcpCommands } from "./mcp-commands.js";
import { registerMockLlmCommand } from "./mock-llm-command.js";
import { registerHistoryCommands } from "./history-commands.js";
import { registerCheckpointCommands } from "./checkpoint-commands.js";
import { registerFleetCommands } from "./fleet-commands.js";
import { registerPermissionsCommand } from "./permissions-command.js";
import { registerSandboxCommand } from "./sandbox-command.js";
import { registerCompactCommand } from "./compact-command.js";
import { registerHooksCommands } from "./hooks-command.js";
import { registerCommandsCommand } from "./commands-command.js";
import { registerAcpCommand } from "./acp-command.js";

function packageVersion(): string {
  const raw = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  const parsed = JSON.parse(raw) as { version: string };
  return parsed.version;
}

/** Builds the command tree; each subcommand loads its heavy modules lazily. */
export function buildProgram(): Command {
  const program = new Command("cairn")
    .description("An autonomous coding agent: give it a task in a repository, watch it work.")
    .version(packageVersion(), "-V, --version")
    .exitOverride()
    .enablePositionalOptions();
  addHabitOptions(addTaskOptions(program.argument("[task...]", "a task to start in the terminal UI"))).action(
    async (words: string[], flags: TaskCommandOptions & HabitFlags) => {
      process.exitCode = (await runHabit(words, flags)) ?? (await runDefault(words, flags));
    },
  );
  program.helpCommand("help [command]", "show help for cairn or one of its commands");
  registerRunCommand(program);
  registerDemoCommand(program);
  registerConfigCommand(program);
  registerMockLlmCommand(program);
  registerMcpCommands(program, defaultMcpCommandContext());
  registerHistoryCommands(program, defaultMcpCommandContext());
  registerCheckpointCommands(program, defaultMcpCommandContext());
  registerFleetCommands(program);
  registerPermissionsCommand(program);
  registerSandboxCommand(program);
  registerCompactCommand(program);
  registerHooksCommands(program);
  registerCommandsCommand(program);
  registerAcpCommand(program, packageVersion);
  return program;
}

/** Runs the CLI and returns the exit status. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
