import { Command, CommanderError } from "commander";
import { readFileSync } from "node:fs";
import { withdrawSecrets } from "../security/secret-environment.js";
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
import { registerRewindForkCommands } from "./rewind-fork-commands.js";
import { registerFleetCommands } from "./fleet-commands.js";
import { registerPermissionsCommand } from "./permissions-command.js";
import { registerSandboxCommand } from "./sandbox-command.js";
import { registerCompactCommand } from "./compact-command.js";
import { registerHooksCommands } from "./hooks-command.js";
import { registerPluginCommands } from "./plugin-command.js";
import { registerCommandsCommand } from "./commands-command.js";
import { registerAcpCommand } from "./acp-command.js";
import { registerAttachCommand } from "./attach-command.js";
import { registerServeCommand } from "./serve-command.js";
import { registerUsageCommand } from "./usage-command.js";
import { commandNames, mistypedCommandMessage, unknownHelpTopicMessage } from "./command-typos.js";
import { debugRequested, readableStack } from "./readable-stack.js";

function packageVersion(): string {
  const raw = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  const parsed = JSON.parse(raw) as { version: string };
  return parsed.version;
}

/** The top-level commands each registration adds (checked against the full tree by main.test.ts). */
interface Registration {
  names: readonly string[];
  register: (program: Command) => void;
}

const registrations: readonly Registration[] = [
  { names: ["run", "resume"], register: registerRunCommand },
  { names: ["demo"], register: registerDemoCommand },
  { names: ["config"], register: registerConfigCommand },
  { names: ["mock-llm"], register: registerMockLlmCommand },
  { names: ["mcp"], register: (program) => registerMcpCommands(program, defaultMcpCommandContext()) },
  { names: ["history", "show"], register: (program) => registerHistoryCommands(program, defaultMcpCommandContext()) },
  { names: ["checkpoints", "diff", "restore"], register: (program) => registerCheckpointCommands(program, defaultMcpCommandContext()) },
  { names: ["rewind", "fork"], register: (program) => registerRewindForkCommands(program, defaultMcpCommandContext()) },
  { names: ["queue", "worker", "replay", "eval"], register: registerFleetCommands },
  { names: ["permissions"], register: registerPermissionsCommand },
  { names: ["sandbox"], register: registerSandboxCommand },
  { names: ["compact"], register: registerCompactCommand },
  { names: ["hooks"], register: registerHooksCommands },
  { names: ["plugin"], register: registerPluginCommands },
  { names: ["commands"], register: registerCommandsCommand },
  { names: ["acp"], register: (program) => registerAcpCommand(program, packageVersion) },
  { names: ["attach"], register: registerAttachCommand },
  { names: ["serve"], register: registerServeCommand },
  { names: ["usage"], register: (program) => registerUsageCommand(program, defaultMcpCommandContext()) },
];

/**
 * Builds the command tree; each subcommand loads its heavy modules lazily. With `command`
 * (the first argument names a subcommand), only that subcommand's registration is made:
 * registering every command with all its options cost about 5 ms of each start (issue 18).
 * Nothing can precede the subcommand then, so the program's own task options are left out too.
 */
export function buildProgram(command?: string): Command {
  const program = new Command("cairn").description("An autonomous coding agent: give it a task in a repository, watch it work.").version(packageVersion(), "-V, --version").exitOverride().enablePositionalOptions();
  const only = command === undefined ? undefined : registrations.find((registration) => registration.names.includes(command));
  if (only !== undefined) {
    only.register(program);
    return program;
  }
  addHabitOptions(addTaskOptions(program.argument("[task...]", "a task to start in the terminal UI"))).action(async (words: string[], flags: TaskCommandOptions & HabitFlags) => {
    // A new task of one word close to a command name is a typo (`cairn histroy`), not a paid task.
    const startsTask = flags.continue !== true && flags.resume === undefined;
    const mistyped = startsTask ? mistypedCommandMessage(words, commandNames(program)) : undefined;
    if (mistyped !== undefined) {
      process.stderr.write(mistyped);
      process.exitCode = 2;
      return;
    }
    process.exitCode = (await runHabit(words, flags)) ?? (await runDefault(words, flags));
  });
  program.helpCommand("help [command]", "show help for cairn or one of its commands");
  for (const registration of registrations) registration.register(program);
  return program;
}

/** Runs the CLI and returns the exit status. */
/** What `bin/cairn` runs: first takes the keys out of reach of other processes (src/security/secret-environment.ts). */
export async function cli(argv: string[]): Promise<number> {
  withdrawSecrets();
  return main(argv);
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram(argv[0]);
  // `cairn help nosuch`: commander would print the general help and say nothing of the name.
  const unknownTopic = argv[0] === "help" && argv[1] !== undefined && !argv[1].startsWith("-") ? unknownHelpTopicMessage(argv[1], program) : undefined;
  if (unknownTopic !== undefined) {
    process.stderr.write(unknownTopic);
    return 2;
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
    // CAIRN_DEBUG=1: the trace, naming cairn's sources (src/….ts:line), for a bug report.
    if (debugRequested()) process.stderr.write(`${readableStack(error)}\n`);
    return 1;
  }
}
