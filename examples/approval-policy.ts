/**
 * An approval policy in code: `canUseTool` decides every approval the task
 * asks for, and each decision is logged.
 *
 *   node approval-policy.js <folder> <task...>
 *
 * - Reading and editing files inside the folder: allowed.
 * - Files outside it: denied.
 * - A command that runs `rm`, `curl` or `git push` anywhere in it: denied.
 * - Other commands: allowed.
 * - Anything else (MCP tools, custom tools): denied.
 *
 * Provider settings come from the environment, as for `cairn run`.
 */
import { startTask, type CanUseTool, type ToolUseDecision } from "cairn";

const [folder, ...words] = process.argv.slice(2);
if (folder === undefined || words.length === 0) {
  console.error("usage: approval-policy <folder> <task...>");
  process.exit(2);
}

const fileTools = new Set(["read_file", "list_files", "search_files", "list_code_definition_names", "write_to_file", "replace_in_file"]);
/** `rm`, `curl` and `git push` as words of a command (`rm -rf x`, `a && curl ...`, `git push origin`). */
const deniedCommand = /(^|[\s;&|(`$])(rm|curl)(\s|$)|\bgit\s+push\b/;

function decide(toolName: string, input: Record<string, unknown>): ToolUseDecision & { about: string } {
  if (toolName === "execute_command") {
    const command = typeof input["command"] === "string" ? input["command"] : "";
    if (deniedCommand.test(command)) return { behavior: "deny", message: "This policy does not allow rm, curl or git push.", about: command };
    return { behavior: "allow", about: command };
  }
  if (fileTools.has(toolName)) {
    const path = typeof input["path"] === "string" ? input["path"] : "";
    if (input["outsideWorkspace"] === true) return { behavior: "deny", message: "Only files inside the workspace.", about: path };
    return { behavior: "allow", about: path };
  }
  return { behavior: "deny", message: `This policy does not allow ${toolName}.`, about: "" };
}

const canUseTool: CanUseTool = ({ toolName, input }) => {
  const { about, ...decision } = decide(toolName, input);
  console.log(`policy: ${decision.behavior} ${toolName}${about === "" ? "" : ` ${about}`}`);
  return decision;
};

const task = startTask(words.join(" "), { cwd: folder, canUseTool });
try {
  for await (const event of task) {
    if (event.type === "say" && event.say === "completion_result" && !event.partial) console.log(`result: ${event.text}`);
    if (event.type === "result") {
      console.log(`${event.status}: ${event.refused} action(s) refused`);
      process.exitCode = event.exitStatus;
    }
  }
} catch (error) {
  console.error(`approval-policy: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
