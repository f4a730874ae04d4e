// Runs only the `mock-llm` subcommand from source (through tsx), so its test does not need a build.
import { Command } from "commander";
import { registerMockLlmCommand } from "../mock-llm-command.js";

const program = new Command("cairn");
registerMockLlmCommand(program);
await program.parseAsync(process.argv.slice(2), { from: "user" });
