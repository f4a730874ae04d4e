import type { ToolSchema } from "../../llm/types.js";
import type { ToolUseBlock } from "../../parser/types.js";
import type { Mode, ToolCallContext, ToolExecutor, ToolOutcome } from "../contracts/tool-executor.js";

export interface FakeToolCall {
  name: string;
  params: Record<string, string>;
  startedAt: number;
  finishedAt?: number;
}

type Handler = (params: Record<string, string>, context: ToolCallContext) => Promise<ToolOutcome>;

const readOnlyTools = new Set(["read_file", "list_files", "ask_followup_question", "attempt_completion", "wait"]);

/**
 * A small ToolExecutor for tests of the loop (the real tools have their own
 * tests). `write_to_file` and `execute_command` ask for approval unless `yes`;
 * `wait` runs until aborted; `attempt_completion` asks unless `yes`.
 */
export class FakeToolExecutor implements ToolExecutor {
  readonly calls: FakeToolCall[] = [];
  readonly partials: ToolUseBlock[] = [];
  abortAllCalls = 0;
  private readonly handlers = new Map<string, Handler>();

  constructor(private readonly options: { yes?: boolean; clock?: () => number } = {}) {
    const approve = async (context: ToolCallContext, what: string): Promise<ToolOutcome | undefined> => {
      if (this.options.yes) return undefined;
      const answer = await context.ask("tool", what);
      if (answer.response === "yes") return undefined;
      return { status: "rejected", content: `The user denied this operation.${answer.text ? `\n<feedback>\n${answer.text}\n</feedback>` : ""}` };
    };
    this.handlers.set("read_file", async (params) => {
      if (!params["path"]) return { status: "mistake", content: "Missing value for required parameter 'path'." };
      return { status: "success", content: `contents of ${params["path"]}` };
    });
    this.handlers.set("write_to_file", async (params, context) => {
      const rejected = await approve(context, `write ${params["path"] ?? ""}`);
      if (rejected) return rejected;
      // As the real tool does: it names the one file it writes.
      await context.beforeMutation([params["path"] ?? ""]);
      return { status: "success", content: `wrote ${params["path"] ?? ""}` };
    });
    this.handlers.set("execute_command", async (params, context) => {
      const rejected = await approve(context, `run ${params["command"] ?? ""}`);
      if (rejected) return rejected;
      return { status: "success", content: `ran ${params["command"] ?? ""}` };
    });
    this.handlers.set("fail", async () => ({ status: "error", content: "it failed" }));
    this.handlers.set("wait", (_params, context) => {
      return new Promise((resolve) => {
        context.signal.addEventListener("abort", () => resolve({ status: "error", content: "aborted" }), { once: true });
      });
    });
    this.handlers.set("ask_followup_question", async (params, context) => {
      const answer = await context.ask("followup", params["question"] ?? "");
      return { status: "success", content: `<answer>\n${answer.text ?? answer.response}\n</answer>` };
    });
    this.handlers.set("attempt_completion", async (params, context) => {
      context.say("completion_result", params["result"] ?? "");
      if (this.options.yes) return { status: "success", content: "", completed: true };
      const answer = await context.ask("completion_result", "");
      if (answer.response === "message") return { status: "success", content: `<feedback>\n${answer.text}\n</feedback>` };
      return { status: "success", content: "", completed: true };
    });
  }

  setHandler(name: string, handler: Handler): void {
    this.handlers.set(name, handler);
  }

  toolSchemas(_mode: Mode): ToolSchema[] {
    return [...this.handlers.keys()].map((name) => ({
      name,
      description: `the ${name} tool`,
      inputSchema: { type: "object", properties: { path: { type: "string" }, command: { type: "string" }, result: { type: "string" } } },
    }));
  }

  promptDescriptions(mode: Mode): string {
    return `## tools in ${mode} mode\n${[...this.handlers.keys()].join("\n")}`;
  }

  toolNames(): string[] {
    return [...this.handlers.keys()];
  }

  parameterNames(): string[] {
    return ["path", "command", "content", "result", "question"];
  }

  isReadOnly(name: string): boolean {
    return readOnlyTools.has(name);
  }

  presentPartial(block: ToolUseBlock, context: ToolCallContext): void {
    this.partials.push({ ...block, params: { ...block.params } });
    context.say("tool", JSON.stringify({ tool: block.name, ...block.params }), { partial: true, key: block.id });
  }

  async executeTool(block: ToolUseBlock, context: ToolCallContext): Promise<ToolOutcome> {
    context.say("tool", JSON.stringify({ tool: block.name, ...block.params }), { partial: false, key: block.id });
    const handler = this.handlers.get(block.name);
    if (!handler) return { status: "mistake", content: `Unknown tool ${block.name}.` };
    const call: FakeToolCall = { name: block.name, params: { ...block.params }, startedAt: this.now() };
    this.calls.push(call);
    // The real executor's contract (src/tools/create-tool-executor.ts): a tool's exception
    // becomes a tool error and never reaches the Task. A fake that let it through could let
    // a Task test pass on behaviour the real executor never shows.
    try {
      return await handler(block.params, context);
    } catch (error) {
      return { status: "error", content: `${block.name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      call.finishedAt = this.now();
    }
  }

  async abortAll(): Promise<void> {
    this.abortAllCalls += 1;
  }

  private now(): number {
    return this.options.clock ? this.options.clock() : Date.now();
  }
}
