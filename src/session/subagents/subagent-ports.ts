/** What the subagent factory needs of its parent's session: its MCP hub and its hooks, once they are wired. */
import type { McpGate } from "../../task/contracts/seams.js";
import type { ToolExecutor } from "../../task/contracts/tool-executor.js";
import type { McpPort } from "../../tools/mcp-port.js";

/** What a child needs of the parent's MCP hub (src/session/mcp-wiring.ts). */
export interface SubagentMcp {
  port: McpPort | undefined;
  gate: McpGate;
  wrap(executor: ToolExecutor): ToolExecutor;
}

/** What the factory needs of the session's hook runner (src/hooks/hook-runner.ts). */
export interface SubagentHookRunner {
  has(event: "SubagentStop"): boolean;
  run(event: "SubagentStop", payload: Record<string, unknown>): Promise<unknown>;
}

/** The session's hooks as children use them: SubagentStop, and the tool hooks around each child's tools. */
export interface SubagentHooks {
  runner: SubagentHookRunner;
  wrapExecutor(executor: ToolExecutor): ToolExecutor;
}
