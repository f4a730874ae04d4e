/**
 * The shape every tool shares: one parameter schema (the single source of
 * the XML prompt text and the native JSON schema), whether it only reads,
 * and how it runs. Tools reach the user, the workspace and the approval
 * policy only through the `ToolRuntime` they are handed.
 */
import type { ActionJudge } from "./auto-mode/judge-contract.js";
import type { LaunchPolicy } from "../security/process-launch.js";
import type { ToolMeta } from "../task/contracts/message-meta.js";
import type { Mode, ToolCallContext, ToolOutcome } from "../task/contracts/tool-executor.js";
import type { McpPort } from "./mcp-port.js";
import type { LanguagePort } from "./language-port.js";
import type { ApprovalPolicy } from "./approval.js";
import type { FileTracker } from "./file-tracker.js";
import type { WorkspaceGuard } from "./workspace-guard.js";
import type { CommandRegistry } from "./command/command-registry.js";
import type { WorkspaceOperations } from "./operations.js";
import type { ProcessPort } from "./process/start-background.js";

export type ParameterType = "string" | "boolean" | "integer" | "number" | "array" | "object";

export interface ToolParameter {
  name: string;
  required: boolean;
  description: string;
  /** Native JSON type; in the XML protocol every value arrives as text. Defaults to "string". */
  type?: ParameterType;
  /** Placeholder shown in the XML usage example. */
  usage?: string;
  /** Native schema of array items, when `type` is "array". */
  items?: Record<string, unknown>;
  /** An empty value is acceptable (absent is still a mistake when required). */
  allowEmpty?: boolean;
}

export interface ToolDefinition {
  name: string;
  /** What the model reads about the tool (may depend on the mode). */
  description: string | ((mode: Mode) => string);
  parameters: ToolParameter[];
  /**
   * The whole JSON schema of the arguments (type "object"), for tools whose schema says more than
   * `parameters` can (nested objects, enums): the native protocol offers it instead of the one built
   * from `parameters`, which still give the XML prompt text and the required-parameter check.
   */
  inputSchema?: Record<string, unknown>;
  /** Runs without waiting for the initial checkpoint (SPEC T16). */
  readOnly: boolean;
  /** Changes the workspace or runs programs: refused in plan mode. */
  mutates?: boolean;
  /** Modes in which the tool is offered (both when absent). */
  modes?: Mode[];
  /** The `say` type of the partial presentation (default "tool"). */
  partialSayType?: "tool" | "command" | "completion_result";
  /** Offered only when this holds (e.g. an MCP hub is connected). */
  isAvailable?(options: ToolRuntimeOptions): boolean;
  /** What to show while the call still streams; never runs anything. */
  describePartial?(params: Record<string, string>, runtime: ToolRuntime): PartialPresentation;
  execute(params: Record<string, string>, runtime: ToolRuntime): Promise<ToolOutcome>;
}

export interface PartialPresentation {
  text: string;
  /** The card's meta, declared per tool (src/task/contracts/tool-meta.ts). */
  meta?: ToolMeta;
}

export interface ToolRuntimeOptions {
  yes: boolean;
  /** Auto mode's judge (issue 30), for the asks a tool makes itself (a subagent's merge). */
  judge?: ActionJudge;
  allowOutsideWrites: boolean;
  protocol: "xml" | "native";
  dataDir: string;
  /** Where full command outputs are saved. */
  outputFolder: string;
  commandTimeoutMs: number;
  shell: string;
  /** See `keepBackgroundProcesses` in docs/configuration.md. */
  keepBackgroundProcesses: boolean;
  fetch: typeof fetch;
  mcp?: McpPort;
  /** Language servers (src/lsp/): new problems after edits, and the `lsp` tool. */
  languages?: LanguagePort;
  /** How commands start: scrubbed environment and sandbox (src/security). */
  launchPolicy?: LaunchPolicy;
  /** The model accepts images: read_file of an image returns the image (issue #12). */
  supportsImages?: boolean;
  /** Where file reads, writes and commands happen (local, or through an editor). */
  operations: WorkspaceOperations;
  /** A subagent's tools (issue #17): its completion ends it without asking the user. */
  subagent?: { subagentId: string };
  /**
   * The task runs headless (`cairn -p`, `cairn run`, a fleet worker): nobody reviews
   * the result, so attempt_completion ends the task without an ask (as `claude -p`
   * does). Other asks still go to the host (and its `--on-ask` policy).
   */
  headless?: boolean;
  /** Background processes (#31): absent where commands cannot run in the background (subagents). */
  processes?: ProcessPort;
  /** A read-only subagent (issue #17): a reason to refuse a command that is not read-only. */
  readOnlyCommands?: (command: string) => Promise<string | undefined>;
}

/** Everything a tool may use for one call. */
export interface ToolRuntime {
  context: ToolCallContext;
  /** Id of the tool block: keys the UI messages of this call. */
  callId: string;
  toolName: string;
  guard: WorkspaceGuard;
  approvals: ApprovalPolicy;
  files: FileTracker;
  commands: CommandRegistry;
  options: ToolRuntimeOptions;
}
