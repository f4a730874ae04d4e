/**
 * Custom tools: a program embedding cairn (the SDK, src/sdk/) defines a tool
 * in-process with a zod schema and a function; `customTool` turns it into a
 * `ToolDefinition` the tool executor registers beside the built-in tools
 * (`SessionOptions.tools`). It is offered in both protocols (its prompt section
 * in XML, its real JSON schema in native), and goes through the same approval
 * policy (kind "custom": asks unless it only reads; rules name it), hooks
 * (under its own name), budgets and output cap as every other tool.
 */
import { z } from "zod";
import type { ToolOutcome } from "../task/contracts/tool-executor.js";
import { builtinTools } from "./builtin-tools.js";
import { argumentsJsonSchema, coerceArguments, invalidArguments, parametersOf } from "./custom-tool-input.js";
import { describeError } from "./file-io.js";
import { capTextParts } from "./output-cap.js";
import { success, toolError, withApprovalFeedback } from "./responses.js";
import type { ToolDefinition, ToolRuntime } from "./tool-definition.js";

/** What `run` gets beside its input: the task's abort signal and the workspace folder. */
export interface CustomToolContext {
  signal: AbortSignal;
  cwd: string;
}

/** Text for the model, or text marked as an error (the call then counts as failed). */
export type CustomToolResult = string | { content: string; isError?: boolean };

export interface CustomToolSpec<Shape extends z.ZodRawShape> {
  /** `[a-zA-Z0-9_-]{1,64}`; not the name of a built-in tool. Rules and hooks name the tool by it. */
  name: string;
  /** What the model reads about the tool. */
  description: string;
  /** A raw shape (`{ id: z.string() }`, as the Claude Agent SDK's `tool()` takes) or a `z.object`. */
  inputSchema: Shape | z.ZodObject<Shape, z.core.$ZodObjectConfig>;
  /**
   * The tool only reads (default false): approved as reads inside the workspace are, and offered
   * in plan mode. Otherwise it asks for approval (as an MCP tool does) and plan mode refuses it.
   */
  readOnly?: boolean;
  run(input: z.infer<z.ZodObject<Shape>>, context: CustomToolContext): Promise<CustomToolResult> | CustomToolResult;
}

/** A custom tool's spec that cannot be offered (its name, its schema). */
export class InvalidCustomToolError extends Error {
  override readonly name = "InvalidCustomToolError";
}

const validName = /^[a-zA-Z0-9_-]{1,64}$/;

/** Tools cairn registers itself besides `builtinTools` (subagents, extensions, the browser), and card names. */
const otherCairnTools = ["use_subagents", "use_skill", "new_rule", "browser_action", "subagent_merge", "custom_tool"];

/** Claude Code's tool names: a rule or hook matcher naming one of them means Claude Code's tool (src/hooks/tool-names.ts). */
const claudeCodeNames = ["Bash", "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "WebFetch", "Network", "Unsandboxed", "Glob", "Grep", "LS", "Task"];

const reservedNames: ReadonlySet<string> = new Set([...builtinTools.map((tool) => tool.name), ...otherCairnTools, ...claudeCodeNames]);

/** Why a name cannot be a custom tool's, or undefined when it can. */
export function customToolNameProblem(name: string): string | undefined {
  if (!validName.test(name)) return `"${name}" is not a valid tool name: use 1 to 64 letters, digits, "_" or "-"`;
  if (reservedNames.has(name)) return `"${name}" is the name of a built-in tool; give the custom tool another name`;
  // The native protocol offers MCP tools as `mcp__server__tool` (or `mcph_…`), and rules read `mcp__…` as MCP rules.
  if (name.startsWith("mcp__") || name.startsWith("mcph_")) return `"${name}" looks like an MCP tool's name (mcp__…, mcph_…); give the custom tool another name`;
  return undefined;
}

function isZodObject<Shape extends z.ZodRawShape>(schema: Shape | z.ZodObject<Shape, z.core.$ZodObjectConfig>): schema is z.ZodObject<Shape, z.core.$ZodObjectConfig> {
  return schema instanceof z.ZodObject;
}

function outcomeOf(tool: string, result: unknown): ToolOutcome {
  const given = typeof result === "string" ? { content: result, isError: false } : contentOf(result);
  if (given === undefined) return toolError(`${tool} returned neither text nor { content: string }, so there is no result.`);
  // The cap MCP results have: the model gets at most this much text, with a note of the size.
  const capped = capTextParts([{ type: "text", text: given.content === "" ? "(the tool returned no content)" : given.content }]);
  const text = capped.map((part) => (part.type === "text" ? part.text : "")).join("\n");
  return given.isError ? toolError(`${tool} reported an error: ${text}`) : success(text);
}

function contentOf(result: unknown): { content: string; isError: boolean } | undefined {
  if (typeof result !== "object" || result === null || !("content" in result)) return undefined;
  const { content } = result;
  if (typeof content !== "string") return undefined;
  return { content, isError: "isError" in result && result.isError === true };
}

/** `run`'s result, or "aborted" as soon as the signal fires (a tool that ignores the signal does not hold up the task). */
async function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<{ result: T } | "aborted"> {
  let stop: (() => void) | undefined;
  const aborted = new Promise<"aborted">((resolve) => {
    stop = () => resolve("aborted");
    signal.addEventListener("abort", stop, { once: true });
  });
  try {
    return await Promise.race([work.then((result) => ({ result })), aborted]);
  } finally {
    if (stop !== undefined) signal.removeEventListener("abort", stop);
  }
}

export function customTool<Shape extends z.ZodRawShape>(spec: CustomToolSpec<Shape>): ToolDefinition {
  const problem = customToolNameProblem(spec.name);
  if (problem !== undefined) throw new InvalidCustomToolError(problem);
  const name = spec.name;
  const object: z.ZodObject<Shape, z.core.$ZodObjectConfig> = isZodObject(spec.inputSchema) ? spec.inputSchema : z.object(spec.inputSchema);
  let inputSchema: Record<string, unknown>;
  try {
    inputSchema = argumentsJsonSchema(object);
  } catch (error) {
    throw new InvalidCustomToolError(`the input schema of ${name} cannot be given to the model as JSON schema: ${describeError(error)}`);
  }
  const readOnly = spec.readOnly === true;

  const execute = async (params: Record<string, string>, runtime: ToolRuntime): Promise<ToolOutcome> => {
    const input = coerceArguments(params, inputSchema);
    const checked = await object.safeParseAsync(input);
    if (!checked.success) return invalidArguments({ tool: name, error: checked.error, protocol: runtime.options.protocol, schema: inputSchema });
    const decision = await runtime.approvals.approve({
      request: { kind: "custom", tool: name, readOnly },
      context: runtime.context,
      presentation: { key: runtime.callId, text: `${name}\n${JSON.stringify(input, null, 2)}`, meta: { tool: "custom_tool", name, input } },
    });
    if (!decision.approved) return decision.outcome;
    const { signal } = runtime.context;
    if (signal.aborted) return toolError(`${name} was cancelled before it ran.`);
    try {
      const work = Promise.resolve().then(() => spec.run(checked.data, { signal, cwd: runtime.guard.root }));
      const ran = await untilAborted(work, signal);
      if (ran === "aborted") {
        work.catch(() => undefined); // its later failure, if any, has nobody to tell
        return toolError(`${name} was cancelled.`);
      }
      return withApprovalFeedback(outcomeOf(name, ran.result), decision.feedback);
    } catch (error) {
      if (signal.aborted) return toolError(`${name} was cancelled.`);
      return toolError(`${name} threw an error: ${describeError(error)}`);
    }
  };

  return {
    name,
    description: spec.description,
    parameters: parametersOf(inputSchema),
    inputSchema,
    readOnly,
    ...(readOnly ? {} : { mutates: true }),
    describePartial: () => ({ text: name, meta: { tool: "custom_tool", name } }),
    execute,
  };
}
