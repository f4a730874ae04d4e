import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { validateJsonSchema } from "../mcp/validate-json-schema.js";
import type { McpToolInfo } from "../mcp-port.js";
import { createRecordingMcpPort } from "../test-support/recording-mcp-port.js";
import { createRecordingContext, textOf } from "../test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "../test-support/test-workspace.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace();
});
afterEach(() => workspace.cleanup());

const echo: McpToolInfo = {
  server: "everything",
  name: "echo",
  description: "Echoes",
  inputSchema: { type: "object", properties: { message: { type: "string" }, times: { type: "integer" }, mode: { enum: ["loud", "quiet"] } }, required: ["message"] },
  autoApprove: false,
};
const add: McpToolInfo = { ...echo, name: "add", autoApprove: true, inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } };

function setup() {
  const mcp = createRecordingMcpPort({
    tools: [echo, add],
    servers: [
      { name: "everything", connected: true },
      { name: "down", connected: false, error: "spawn ENOENT" },
    ],
  });
  return { mcp, executor: createTestExecutor(workspace, { mcp }) };
}

describe("use_mcp_tool", () => {
  it("asks, then calls the tool with the parsed arguments", async () => {
    const { mcp, executor } = setup();
    const context = createRecordingContext({ answers: [{ response: "yes" }] });
    const outcome = await executor.executeTool(toolCall("use_mcp_tool", { server_name: "everything", tool_name: "echo", arguments: '{"message":"hi","times":2}' }), context);
    expect(context.asks[0]).toMatchObject({ type: "use_mcp_server", meta: { server: "everything", name: "echo" } });
    expect(mcp.calls).toEqual([{ server: "everything", tool: "echo", arguments: { message: "hi", times: 2 } }]);
    expect(textOf(outcome.content)).toBe("called echo");
    expect(context.says.some((say) => say.type === "mcp_notification" && say.text === "halfway")).toBe(true);
  });

  it("a server's autoApprove list skips the question", async () => {
    const { mcp, executor } = setup();
    const context = createRecordingContext();
    await executor.executeTool(toolCall("use_mcp_tool", { server_name: "everything", tool_name: "add", arguments: '{"a":1,"b":2}' }), context);
    expect(context.asks).toEqual([]);
    expect(mcp.calls).toHaveLength(1);
  });

  it("bad arguments are a mistake with a clear message and no call", async () => {
    const { mcp, executor } = setup();
    for (const [args, message] of [
      ['{"times":"two"}', "arguments.message is required"],
      ['{"message":"x","times":"two"}', "arguments.times must be integer, but it is string"],
      ['{"message":"x","mode":"shout"}', 'arguments.mode must be one of "loud", "quiet"'],
      ["{not json", "not valid JSON"],
      ["[1]", "must be a JSON object"],
    ] as const) {
      const outcome = await executor.executeTool(toolCall("use_mcp_tool", { server_name: "everything", tool_name: "echo", arguments: args }), createRecordingContext());
      expect(outcome.status).toBe("mistake");
      expect(textOf(outcome.content)).toContain(message);
    }
    expect(mcp.calls).toEqual([]);
  });

  it("names the servers and tools that exist when the model guesses wrong", async () => {
    const { executor } = setup();
    const noServer = await executor.executeTool(toolCall("use_mcp_tool", { server_name: "nope", tool_name: "echo" }), createRecordingContext());
    expect(textOf(noServer.content)).toContain("Servers: everything, down");
    const noTool = await executor.executeTool(toolCall("use_mcp_tool", { server_name: "everything", tool_name: "nope" }), createRecordingContext());
    expect(textOf(noTool.content)).toContain("Its tools: echo, add");
    const down = await executor.executeTool(toolCall("use_mcp_tool", { server_name: "down", tool_name: "echo" }), createRecordingContext());
    expect(textOf(down.content)).toContain("not connected: spawn ENOENT");
  });

  it("an error result from the server is an error outcome", async () => {
    const mcp = createRecordingMcpPort({ tools: [add], servers: [{ name: "everything", connected: true }], result: { content: [{ type: "text", text: "boom" }], isError: true } });
    const outcome = await createTestExecutor(workspace, { mcp }).executeTool(toolCall("use_mcp_tool", { server_name: "everything", tool_name: "add", arguments: "{}" }), createRecordingContext());
    expect(outcome.status).toBe("error");
    expect(textOf(outcome.content)).toContain("boom");
  });

  it("is not offered without an MCP hub", () => {
    expect(createTestExecutor(workspace).toolNames()).not.toContain("use_mcp_tool");
    expect(setup().executor.toolNames()).toContain("access_mcp_resource");
  });
});

describe("access_mcp_resource", () => {
  it("asks, then reads the resource", async () => {
    const { mcp, executor } = setup();
    const context = createRecordingContext({ answers: [{ response: "yes" }] });
    const outcome = await executor.executeTool(toolCall("access_mcp_resource", { server_name: "everything", uri: "test://static/resource/1" }), context);
    expect(mcp.reads).toEqual([{ server: "everything", uri: "test://static/resource/1" }]);
    expect(textOf(outcome.content)).toBe("resource test://static/resource/1");
  });
});

describe("validateJsonSchema", () => {
  it("checks nested objects, arrays and extra properties", () => {
    const schema = { type: "object", additionalProperties: false, properties: { list: { type: "array", items: { type: "object", required: ["id"], properties: { id: { type: "number" } } } } } };
    expect(validateJsonSchema(schema, { list: [{ id: 1 }, { id: 2 }] })).toEqual([]);
    expect(validateJsonSchema(schema, { list: [{ id: "x" }, {}], extra: true })).toEqual([
      "arguments.list[0].id must be number, but it is string",
      "arguments.list[1].id is required",
      "arguments.extra is not a known argument (known: list)",
    ]);
    expect(validateJsonSchema({ type: ["string", "null"] }, null)).toEqual([]);
    expect(validateJsonSchema({ type: "integer" }, 1.5)).toEqual(["arguments must be integer, but it is number"]);
  });
});
