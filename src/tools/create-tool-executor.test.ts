import { existsSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRecordingMcpPort } from "./test-support/recording-mcp-port.js";
import { createRecordingContext, textOf } from "./test-support/recording-context.js";
import { createTestExecutor, createTestWorkspace, toolCall, type TestWorkspace } from "./test-support/test-workspace.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace({ "a.txt": "a\n" });
});
afterEach(() => workspace.cleanup());

const everyTool = [
  "execute_command",
  "read_file",
  "write_to_file",
  "replace_in_file",
  "search_files",
  "list_files",
  "list_code_definition_names",
  "web_fetch",
  "ask_followup_question",
  "attempt_completion",
  "plan_mode_respond",
  "new_task",
];

describe("createToolExecutor", () => {
  it("T19: knows every built-in tool and its parameters", () => {
    const executor = createTestExecutor(workspace);
    expect(executor.toolNames().sort()).toEqual([...everyTool].sort());
    expect(createTestExecutor(workspace, { mcp: createRecordingMcpPort({ tools: [], servers: [] }) }).toolNames()).not.toContain("use_mcp_tool");
    const withMcp = createTestExecutor(workspace, { mcp: createRecordingMcpPort({ tools: [], servers: [{ name: "s", connected: false }] }) });
    expect(withMcp.toolNames()).toEqual(expect.arrayContaining(["use_mcp_tool", "access_mcp_resource"]));
    expect(withMcp.parameterNames()).toEqual(
      expect.arrayContaining([
        "path",
        "content",
        "diff",
        "command",
        "requires_approval",
        "timeout",
        "regex",
        "file_pattern",
        "recursive",
        "question",
        "options",
        "result",
        "response",
        "context",
        "url",
        "server_name",
        "tool_name",
        "arguments",
        "uri",
        "start_line",
        "end_line",
      ]),
    );
  });

  it("renders one schema as Cline-style prompt text", () => {
    const prompt = createTestExecutor(workspace).promptDescriptions("act");
    expect(prompt).toContain("## read_file\nDescription: Read a file's text.");
    expect(prompt).toContain("Parameters:\n- path: (required) Path of the file, relative to the workspace.\n- start_line: (optional)");
    expect(prompt).toContain("Usage:\n<read_file>\n<path>File path here</path>\n<start_line>1</start_line>\n<end_line>1000</end_line>\n</read_file>");
    expect(prompt).toContain("Use one tool per message");
    expect(createTestExecutor(workspace, { parallelTools: true }).promptDescriptions("act")).toContain("You may use several tools in one message");
  });

  it("renders the same schema as native JSON schemas", () => {
    const schemas = createTestExecutor(workspace, { protocol: "native" }).toolSchemas("act");
    const command = schemas.find((schema) => schema.name === "execute_command");
    expect(command?.inputSchema).toMatchObject({
      type: "object",
      required: ["command", "requires_approval"],
      properties: { command: { type: "string" }, requires_approval: { type: "boolean" }, timeout: { type: "integer" } },
    });
    const followup = schemas.find((schema) => schema.name === "ask_followup_question");
    expect(followup?.inputSchema).toMatchObject({ properties: { options: { type: "array", items: { type: "string" } } } });
  });

  it("offers plan_mode_respond only in plan mode and hides tools that change things there", () => {
    const executor = createTestExecutor(workspace);
    const plan = executor.toolSchemas("plan").map((schema) => schema.name);
    expect(plan).toContain("plan_mode_respond");
    expect(plan).toContain("read_file");
    expect(plan).not.toContain("write_to_file");
    expect(plan).not.toContain("execute_command");
    expect(plan).not.toContain("attempt_completion");
    expect(executor.toolSchemas("act").map((schema) => schema.name)).not.toContain("plan_mode_respond");
    expect(executor.promptDescriptions("plan")).not.toContain("## replace_in_file");
  });

  it("refuses changing tools in plan mode, telling the model to use plan_mode_respond", async () => {
    const executor = createTestExecutor(workspace, { yes: true });
    for (const name of ["write_to_file", "replace_in_file", "execute_command"]) {
      const outcome = await executor.executeTool(toolCall(name, { path: "a.txt", content: "x", diff: "x", command: "touch b", requires_approval: "false" }), createRecordingContext({ mode: "plan" }));
      expect(outcome.status).toBe("mistake");
      expect(textOf(outcome.content)).toContain("plan_mode_respond");
    }
    expect(existsSync(workspace.path("b"))).toBe(false);
  });

  it("an unknown tool is a mistake listing the tools", async () => {
    const outcome = await createTestExecutor(workspace).executeTool(toolCall("delete_everything", {}), createRecordingContext());
    expect(outcome.status).toBe("mistake");
    expect(textOf(outcome.content)).toContain("There is no tool named 'delete_everything'. The tools you can use are: execute_command, read_file");
  });

  it("missing parameters name the parameter and how to send it in each protocol", async () => {
    const xml = await createTestExecutor(workspace).executeTool(toolCall("read_file", {}), createRecordingContext());
    expect(textOf(xml.content)).toContain("<path>...</path>");
    const native = await createTestExecutor(workspace, { protocol: "native" }).executeTool(toolCall("read_file", {}), createRecordingContext());
    expect(textOf(native.content)).toContain('non-empty "path" argument');
  });

  it("T16: says which tools are read-only", () => {
    const executor = createTestExecutor(workspace);
    expect(executor.isReadOnly("read_file")).toBe(true);
    expect(executor.isReadOnly("list_files")).toBe(true);
    expect(executor.isReadOnly("write_to_file")).toBe(false);
    expect(executor.isReadOnly("execute_command")).toBe(false);
    expect(executor.isReadOnly("nonexistent")).toBe(false);
  });

  it("presentPartial shows the call under its block id and never runs it", () => {
    const executor = createTestExecutor(workspace, { yes: true });
    const context = createRecordingContext();
    executor.presentPartial({ type: "tool_use", id: "b1", name: "write_to_file", params: { path: "new.txt", content: "hel" }, partial: true }, context);
    executor.presentPartial({ type: "tool_use", id: "b2", name: "execute_command", params: { command: "touch made" }, partial: true }, context);
    expect(context.says).toEqual([
      { type: "tool", text: "Write new.txt", partial: true, key: "b1", meta: { tool: "write_to_file", path: "new.txt", content: "hel", characters: 3 } },
      { type: "command", text: "touch made", partial: true, key: "b2", meta: { tool: "execute_command", command: "touch made" } },
    ]);
    expect(existsSync(workspace.path("new.txt"))).toBe(false);
    expect(existsSync(workspace.path("made"))).toBe(false);
    expect(context.mutations).toBe(0);
  });

  it("registered tools join the lists, and a tool that throws becomes an error outcome", async () => {
    const executor = createTestExecutor(workspace);
    executor.registerTool({
      name: "explode",
      description: "Always fails.",
      parameters: [{ name: "reason", required: true, description: "Why." }],
      readOnly: true,
      async execute() {
        throw new Error("kaboom");
      },
    });
    expect(executor.toolNames()).toContain("explode");
    expect(executor.parameterNames()).toContain("reason");
    expect(executor.promptDescriptions("act")).toContain("## explode");
    const outcome = await executor.executeTool(toolCall("explode", { reason: "test" }), createRecordingContext());
    expect(outcome).toEqual({ status: "error", content: "The tool failed: explode failed unexpectedly: kaboom" });
  });

  it("does not start a tool once the task is cancelled", async () => {
    const context = createRecordingContext();
    context.controller.abort();
    const outcome = await createTestExecutor(workspace, { yes: true }).executeTool(toolCall("write_to_file", { path: "x.txt", content: "x" }), context);
    expect(outcome.status).toBe("error");
    expect(existsSync(workspace.path("x.txt"))).toBe(false);
  });
});

describe("native arguments that are not JSON", () => {
  it("are a mistake that shows what was sent", async () => {
    const outcome = await createTestExecutor(workspace, { protocol: "native" }).executeTool(toolCall("read_file", { __invalid_arguments: '{"path": "a.txt"' }), createRecordingContext());
    expect(outcome.status).toBe("mistake");
    expect(textOf(outcome.content)).toContain('were not a valid JSON object, so it did not run. You sent:\n{"path": "a.txt"');
  });
});
