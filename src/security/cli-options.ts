/** The command-line options of the security layer, shared by `cairn run`, `cairn resume` and the TUI. */
import type { Command } from "commander";

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function addSecurityOptions(command: Command): Command {
  return command
    .option("--sandbox <mode>", "workspace-write | read-only | off: run commands, hooks and MCP servers under bubblewrap")
    .option("--sandbox-network", "give sandboxed commands the network")
    .option("--allow-outside-reads", "with --yes, allow reading outside the workspace")
    .option("--allow-base-url <url>", "accept this base URL from the project's config before the folder is trusted")
    .option("--allowed-tools <rules>", 'allow rules, Claude Code format (e.g. "Bash(git log:*)"); repeatable', collect)
    .option("--ask-tools <rules>", "ask rules; repeatable", collect)
    .option("--disallowed-tools <rules>", 'deny rules (e.g. "Bash(rm:*)"); repeatable', collect)
    .option("--max-requests <n>", "stop the task after this many model requests (exit status 3)")
    .option("--max-tokens <n>", "stop after this many tokens (input + output)")
    .option("--max-cost <usd>", "stop after this cost in US dollars (catalogue prices)")
    .option("--max-time <duration>", "stop after this long (e.g. 10m)")
    .option("--max-tool-calls <n>", "stop after this many tool calls");
}

export function blockedBaseUrlMessage(url: string, projectConfigPath: string): string {
  return `${projectConfigPath} sends requests (with your API key) to ${url}, and this folder is not trusted. ` + `Run again with --allow-base-url ${url} if you trust that server, or --trust to trust the folder.`;
}
