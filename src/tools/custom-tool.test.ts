import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { NativeToolCallAssembler } from "../llm/native-tool-calls.js";
import type { ToolUseBlock } from "../parser/types.js";
import { customTool, InvalidCustomToolError, type CustomToolContext, type CustomToolResult } from "./custom-tool.js";
import { createRecordingContext, textOf } from "./test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "./test-support/test-workspace.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace({ "a.txt": "a\n" });
});
afterEach(() => workspace.cleanup());

const ticketShape = {
  id: z.string().describe("The ticket's id, like T-12."),
  count: z.number().int().min(1).optional().describe("How many comments to include."),
  urgent: z.boolean().default(false).describe("Only urgent tickets."),
  tags: z.array(z.string()).optional().describe("Labels to match."),
  kind: z.enum(["bug", "task"]).optional(),
  filter: z.object({ open: z.boolean(), owner: z.string().optional() }).optional().describe("Which tickets."),
};

type Ticket = z.infer<z.ZodObject<typeof ticketShape>>;

function lookupTicket(options: { run?: (input: Ticket, context: CustomToolContext) => Promise<CustomToolResult> | CustomToolResult; readOnly?: boolean } = {}) {
  const calls: Ticket[] = [];
  const tool = customTool({
    name: "lookup_ticket",
    description: "Look up a ticket in the tracker.",
    inputSchema: ticketShape,
    ...(options.readOnly !== undefined ? { readOnly: options.readOnly } : {}),
    run(input, context) {
      calls.push(input);
      return options.run ? options.run(input, context) : `ticket ${input.id}`;
    },
  });
  return { tool, calls };
}

function executorWith(tool: ReturnType<typeof customTool>, protocol: "xml" | "native" = "xml") {
  const executor = createTestExecutor(workspace, { yes: true, protocol });
  executor.registerTool(tool);
  return executor;
}

/** A native call as the Task receives it: the provider's JSON arguments through the real assembler. */
function nativeCall(name: string, args: string): ToolUseBlock {
  const assembler = new NativeToolCallAssembler();
  assembler.push({ type: "tool_call", index: 0, id: "call_n", name, argumentsDelta: args });
  const [block] = assembler.finish();
  if (block === undefined) throw new Error("no block");
  return block;
}

describe("custom tools: how the model is offered them", () => {
  it("xml: the prompt section lists each property with its description, required-ness and format", () => {
    const prompt = executorWith(lookupTicket().tool).promptDescriptions("act");
    expect(prompt).toContain("## lookup_ticket\nDescription: Look up a ticket in the tracker.");
    expect(prompt).toContain("- id: (required) The ticket's id, like T-12.");
    expect(prompt).toContain("- count: (optional) How many comments to include. (a whole number)");
    expect(prompt).toContain("- urgent: (optional) Only urgent tickets. (true or false)");
    expect(prompt).toContain("- tags: (optional) Labels to match. (a JSON array)");
    expect(prompt).toContain("- kind: (optional) (one of: bug, task)");
    expect(prompt).toContain('<tags>["item"]</tags>');
  });

  it("native: the tool's schema is zod's own JSON schema, nested objects, arrays and enums included", () => {
    const schema = executorWith(lookupTicket().tool, "native")
      .toolSchemas("act")
      .find((entry) => entry.name === "lookup_ticket");
    expect(schema?.inputSchema).toMatchObject({
      type: "object",
      required: ["id"],
      properties: {
        id: { type: "string", description: "The ticket's id, like T-12." },
        count: { type: "integer", minimum: 1 },
        tags: { type: "array", items: { type: "string" } },
        kind: { enum: ["bug", "task"] },
        filter: { type: "object", properties: { open: { type: "boolean" } }, required: ["open"] },
      },
    });
    expect(schema?.inputSchema).not.toHaveProperty("$schema");
  });

  it("accepts a z.object as well as a raw shape, and built-in tools keep their schemas", () => {
    const tool = customTool({ name: "strict-one", description: "d", inputSchema: z.object({ n: z.number() }).strict(), run: ({ n }) => String(n + 1) });
    const schemas = executorWith(tool, "native").toolSchemas("act");
    expect(schemas.find((entry) => entry.name === "strict-one")?.inputSchema).toMatchObject({ properties: { n: { type: "number" } }, required: ["n"] });
    expect(schemas.find((entry) => entry.name === "read_file")?.inputSchema).toMatchObject({ additionalProperties: false, properties: { path: { type: "string" } } });
  });

  it("refuses names that are invalid, a built-in tool's, Claude Code's or MCP-like, with a clear error", () => {
    const make = (name: string) => () => customTool({ name, description: "d", inputSchema: {}, run: () => "" });
    expect(make("has space")).toThrow(InvalidCustomToolError);
    expect(make("x".repeat(65))).toThrow(/1 to 64 letters/);
    expect(make("read_file")).toThrow('"read_file" is the name of a built-in tool');
    expect(make("Bash")).toThrow(/built-in tool/);
    expect(make("mcp__srv__t")).toThrow(/MCP tool/);
    expect(make("lookup-ticket_2")).not.toThrow();
  });
});

describe("custom tools: parameters in each protocol", () => {
  it("xml: text values are turned into numbers, booleans, arrays and objects before zod checks them", async () => {
    const { tool, calls } = lookupTicket();
    const params = { id: "42", count: " 3 ", urgent: "TRUE", tags: '["a", "b"]', kind: "bug", filter: '{"open": false}', task_progress: "- [x] look" };
    const outcome = await executorWith(tool).executeTool(toolCall("lookup_ticket", params), createRecordingContext());
    expect(outcome).toEqual({ status: "success", content: "ticket 42" });
    expect(calls).toEqual([{ id: "42", count: 3, urgent: true, tags: ["a", "b"], kind: "bug", filter: { open: false } }]);
  });

  it("xml: an empty optional tag counts as absent, and defaults apply", async () => {
    const { tool, calls } = lookupTicket();
    await executorWith(tool).executeTool(toolCall("lookup_ticket", { id: "T-1", count: "", tags: "" }), createRecordingContext());
    expect(calls).toEqual([{ id: "T-1", urgent: false }]);
  });

  it("native: typed arguments reach the tool typed; stringified numbers and booleans are accepted too", async () => {
    const { tool, calls } = lookupTicket();
    const executor = executorWith(tool, "native");
    const typed = nativeCall("lookup_ticket", '{"id":"7","count":2,"urgent":true,"tags":["x"],"filter":{"open":true,"owner":"ann"}}');
    expect(typed.params["count"]).toBe("2"); // how native arguments reach execute(params: Record<string, string>)
    expect((await executor.executeTool(typed, createRecordingContext())).status).toBe("success");
    expect((await executor.executeTool(nativeCall("lookup_ticket", '{"id":"8","count":"4","urgent":"false","kind":null}'), createRecordingContext())).status).toBe("success");
    expect(calls).toEqual([
      { id: "7", count: 2, urgent: true, tags: ["x"], filter: { open: true, owner: "ann" } },
      { id: "8", count: 4, urgent: false },
    ]);
  });

  it("a missing required parameter is the usual missing-parameter mistake, in each protocol", async () => {
    const { tool, calls } = lookupTicket();
    const xml = await executorWith(tool).executeTool(toolCall("lookup_ticket", { count: "1" }), createRecordingContext());
    expect(xml.status).toBe("mistake");
    expect(textOf(xml.content)).toContain("missing value for required parameter 'id' of lookup_ticket");
    expect(textOf(xml.content)).toContain("<id>...</id>");
    const native = await executorWith(tool, "native").executeTool(nativeCall("lookup_ticket", "{}"), createRecordingContext());
    expect(textOf(native.content)).toContain('non-empty "id" argument');
    expect(calls).toEqual([]);
  });

  it("a value zod refuses is a mistake naming the field and the problem; the tool does not run", async () => {
    const { tool, calls } = lookupTicket();
    const executor = executorWith(tool);
    const one = await executor.executeTool(toolCall("lookup_ticket", { id: "1", kind: "epic" }), createRecordingContext());
    expect(one.status).toBe("mistake");
    expect(textOf(one.content)).toMatch(/^invalid value for parameter 'kind' of lookup_ticket: Invalid option: expected one of "bug"\|"task"/);
    const several = await executor.executeTool(toolCall("lookup_ticket", { id: "1", count: "two", filter: '{"open": "yes"}' }), createRecordingContext());
    expect(several.status).toBe("mistake");
    expect(textOf(several.content)).toContain("invalid arguments for lookup_ticket, so it did not run:");
    expect(textOf(several.content)).toContain("- 'count': Invalid input: expected number, received string");
    expect(textOf(several.content)).toContain("- 'filter.open': Invalid input: expected boolean, received string");
    expect(textOf(several.content)).toContain("Write arrays and objects as JSON inside their tag");
    expect(calls).toEqual([]);
  });

  it("a string property keeps text that looks like JSON", async () => {
    const { tool, calls } = lookupTicket();
    await executorWith(tool, "native").executeTool(nativeCall("lookup_ticket", '{"id":"[1]"}'), createRecordingContext());
    expect(calls[0]?.id).toBe("[1]");
  });
});

describe("custom tools: results", () => {
  it("a run that throws is a tool error with its message; isError: true is a tool error too", async () => {
    const thrown = lookupTicket({ run: () => Promise.reject(new Error("tracker is down")) });
    const outcome = await executorWith(thrown.tool).executeTool(toolCall("lookup_ticket", { id: "1" }), createRecordingContext());
    expect(outcome).toEqual({ status: "error", content: "The tool failed: lookup_ticket threw an error: tracker is down" });
    const reported = lookupTicket({ run: () => ({ content: "no such ticket", isError: true }) });
    const error = await executorWith(reported.tool).executeTool(toolCall("lookup_ticket", { id: "1" }), createRecordingContext());
    expect(error).toEqual({ status: "error", content: "The tool failed: lookup_ticket reported an error: no such ticket" });
    const plain = lookupTicket({ run: () => ({ content: "found" }) });
    expect(await executorWith(plain.tool).executeTool(toolCall("lookup_ticket", { id: "1" }), createRecordingContext())).toEqual({ status: "success", content: "found" });
  });

  it("aborting the task ends a run at once, even one that ignores the signal; the run sees the signal and the workspace", async () => {
    let seen: CustomToolContext | undefined;
    const { tool } = lookupTicket({
      run: (_input, context) => {
        seen = context;
        return new Promise<string>(() => undefined);
      },
    });
    const context = createRecordingContext();
    const running = executorWith(tool).executeTool(toolCall("lookup_ticket", { id: "1" }), context);
    await new Promise((resolve) => setTimeout(resolve, 10));
    context.controller.abort();
    expect(await running).toEqual({ status: "error", content: "The tool failed: lookup_ticket was cancelled." });
    expect(seen?.signal.aborted).toBe(true);
    expect(seen?.cwd).toBe(workspace.root);
  });

  it("a long result is capped for the model as MCP results are", async () => {
    const { tool } = lookupTicket({ run: () => "x".repeat(150_000) });
    const outcome = await executorWith(tool).executeTool(toolCall("lookup_ticket", { id: "1" }), createRecordingContext());
    const text = textOf(outcome.content);
    expect(text.length).toBeLessThan(100_200);
    expect(text).toContain("[Output truncated: 100000 of 150000 characters shown.");
  });
});
