/**
 * `cairn mcp serve` over stdio, driven by the MCP SDK's client: the real bin/cairn (dist/: `npm run build`
 * first) with the scripted model in process (`--provider mock`). A task that writes a file is followed to its end
 * and its patch names the file; a task's question is answered through the tool, first answer wins; mistakes
 * are tool errors that say what to do. One server for the whole file.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cairnBin, makeSandbox, type Sandbox } from "../cli/test-support/cli-harness.js";
import type { Scenario } from "../llm/scripted/scenario.js";
import { callTool, valueOf } from "./test-support/mcp-tool-calls.js";

const complete = (result: string): { text: string } => ({ text: `<attempt_completion>\n<result>\n${result}\n</result>\n</attempt_completion>` });
const scenario: Scenario = {
  turns: [],
  conversations: [
    {
      match: "write the greeting",
      turns: [{ text: "<write_to_file>\n<path>greeting.txt</path>\n<content>\nhello from the delegate\n</content>\n</write_to_file>", chunkSize: 16, delayMs: 5 }, complete("Wrote greeting.txt.")],
    },
    { match: "pick a color", turns: [{ text: "<ask_followup_question>\n<question>Which color?</question>\n</ask_followup_question>" }, complete("Painted it.")] },
  ],
};

let sandbox: Sandbox;
let client: Client;
let stderr = "";

beforeAll(async () => {
  sandbox = await makeSandbox();
  const scenarioFile = join(sandbox.root, "scenario.json");
  await writeFile(scenarioFile, JSON.stringify(scenario));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cairnBin, "mcp", "serve", "--provider", "mock", "--scenario", scenarioFile, "--tool-protocol", "xml"],
    env: sandbox.env as Record<string, string>,
    cwd: sandbox.workspace,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  client = new Client({ name: "delegating-agent", version: "1.0.0" });
  await client.connect(transport);
}, 30_000);

afterAll(async () => {
  await client?.close();
  await sandbox?.cleanup();
});

describe("cairn mcp serve over stdio, driven by the MCP SDK's client", () => {
  it("lists its tools with described parameters", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["start_task", "list_tasks", "follow_task", "get_result", "answer_ask", "send_message", "set_mode", "abort_task", "resume_task"]);
    const start = tools.find((tool) => tool.name === "start_task");
    expect(start?.inputSchema.required).toEqual(["folder", "task"]);
    expect(JSON.stringify(start?.inputSchema.properties)).toContain("Absolute path of the folder");
  });

  it("a task that writes a file: followed until it ends, its result has the final text and a patch naming the file", async () => {
    const { taskId } = await valueOf(client, "start_task", { folder: sandbox.workspace, task: "write the greeting", permissionMode: "acceptEdits" });
    expect(typeof taskId).toBe("string");
    const seen: Array<Record<string, unknown>> = [];
    let after = 0;
    for (let polls = 0; polls < 20; polls += 1) {
      const page = await valueOf(client, "follow_task", { taskId, after, waitSeconds: 5 });
      seen.push(...(page["events"] as Array<Record<string, unknown>>));
      after = Number(page["next"]);
      if (page["running"] === false) break;
    }
    // Numbered from 1 up, none twice; the completion among them.
    const numbers = seen.map((event) => Number(event["seq"]));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(seen.some((event) => event["say"] === "completion_result" && event["text"] === "Wrote greeting.txt.")).toBe(true);
    expect(await readFile(join(sandbox.workspace, "greeting.txt"), "utf8")).toBe("hello from the delegate\n");

    const result = await valueOf(client, "get_result", { taskId });
    expect(result).toMatchObject({ taskId, status: "completed", running: false, finalText: "Wrote greeting.txt.", pendingAsks: [] });
    expect(Number(result["tokensIn"])).toBeGreaterThan(0);
    expect(String(result["patch"])).toContain("greeting.txt");
    expect(String(result["patch"])).toContain("+hello from the delegate");
    const listed = await valueOf(client, "list_tasks", {});
    expect(listed["tasks"]).toEqual(expect.arrayContaining([expect.objectContaining({ taskId, status: "completed" })]));
  }, 30_000);

  it("a task's question waits for an answer through answer_ask; a second answer is refused", async () => {
    const { taskId } = await valueOf(client, "start_task", { folder: sandbox.workspace, task: "pick a color" });
    const waiting = await valueOf(client, "get_result", { taskId, waitSeconds: 20 });
    expect(waiting).toMatchObject({ status: "running", running: true });
    const [ask] = waiting["pendingAsks"] as Array<{ askId: string; ask: string; text: string }>;
    expect(ask).toMatchObject({ ask: "followup" });
    expect(ask?.text).toContain("Which color?");

    // set_mode switches the waiting task to plan and back: each switch is an event of its log, naming this client.
    expect(await valueOf(client, "set_mode", { taskId, mode: "plan" })).toEqual({ mode: "plan", changed: true });
    expect((await valueOf(client, "list_tasks", {}))["tasks"]).toEqual(expect.arrayContaining([expect.objectContaining({ taskId, mode: "plan" })]));
    expect(await valueOf(client, "set_mode", { taskId, mode: "act" })).toEqual({ mode: "act", changed: true });
    // A long poll from the last event waits while the task waits, and wakes with what the answer brings.
    const { next, events: sofar } = await valueOf(client, "follow_task", { taskId, after: 0 });
    expect((sofar as Array<Record<string, unknown>>).filter((event) => event["say"] === "info").map((event) => event["meta"])).toEqual([
      { mode: "plan", by: "mcp delegating-agent" },
      { mode: "act", by: "mcp delegating-agent" },
    ]);
    const polled = valueOf(client, "follow_task", { taskId, after: next, waitSeconds: 20 });
    expect(await valueOf(client, "answer_ask", { taskId, askId: ask?.askId, response: "message", text: "blue" })).toEqual({ answered: true });
    const woken = await polled;
    expect((woken["events"] as unknown[]).length).toBeGreaterThan(0);
    expect(Number(woken["next"])).toBeGreaterThan(Number(next));
    const late = await callTool(client, "answer_ask", { taskId, askId: ask?.askId, response: "no" });
    expect(late.isError).toBe(true);
    expect(late.text).toContain("answered already");

    const done = await valueOf(client, "get_result", { taskId, waitSeconds: 20 });
    expect(done).toMatchObject({ status: "completed", finalText: "Painted it." });
    const { events } = await valueOf(client, "follow_task", { taskId });
    expect((events as Array<Record<string, unknown>>).some((event) => event["text"] === "blue")).toBe(true);
    const finished = await callTool(client, "set_mode", { taskId, mode: "plan" });
    expect(finished.isError).toBe(true);
    expect(finished.text).toContain("is not running (completed)");
  }, 30_000);

  it("mistakes are tool errors that say what went wrong", async () => {
    const relative = await callTool(client, "start_task", { folder: "projects/app", task: "write the greeting" });
    expect(relative).toMatchObject({ isError: true });
    expect(relative.text).toContain("folder must be an absolute path");
    const missing = await callTool(client, "start_task", { folder: join(sandbox.root, "no-such-folder"), task: "write the greeting" });
    expect(missing.text).toContain("does not exist");
    const bypass = await callTool(client, "start_task", { folder: sandbox.workspace, task: "write the greeting", permissionMode: "bypassPermissions" });
    expect(bypass).toMatchObject({ isError: true });
    expect(bypass.text).toContain("bypassPermissions is not offered");
    const unknown = await callTool(client, "get_result", { taskId: "no-such-task" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain("no-such-task");
    // Nothing but the protocol went to stdout: the client read every answer (a stray line would have broken it).
    expect(stderr).not.toContain("Error");
  });
});
