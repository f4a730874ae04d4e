import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { NativeToolCallAssembler } from "../llm/native-tool-calls.js";
import type { Chunk } from "../llm/types.js";
import { TaskBudget } from "../security/budget.js";
import { customTool } from "../tools/custom-tool.js";
import { createTestExecutor, createTestWorkspace, type TestWorkspace } from "../tools/test-support/test-workspace.js";
import { textChunks } from "./test-support/gated-provider.js";
import { complete, makeTask, messageText } from "./test-support/make-task.js";

let workspace: TestWorkspace;
beforeEach(() => {
  workspace = createTestWorkspace();
});
afterEach(() => workspace.cleanup());

type Protocol = "xml" | "native";

/** The Task assembles native tool calls as the session core makes it do. */
const nativeCalls = { createNativeToolCalls: () => new NativeToolCallAssembler() };

function ticketTools(protocol: Protocol) {
  const runs: Array<{ id: string; count?: number | undefined; labels?: string[] | undefined }> = [];
  const executor = createTestExecutor(workspace, { protocol });
  executor.registerTool(
    customTool({
      name: "lookup_ticket",
      description: "Look up a ticket in the tracker.",
      inputSchema: z.object({ id: z.string().describe("Ticket id."), count: z.number().int().optional(), labels: z.array(z.string()).optional() }),
      run: (input) => {
        runs.push(input);
        return `ticket ${input.id}: ${input.count ?? 0} comments, labels ${(input.labels ?? []).join("+")}`;
      },
    }),
  );
  return { executor, runs };
}

const call = (protocol: Protocol, id: string, argumentsJson: string): Chunk[] =>
  protocol === "xml"
    ? textChunks(
        `Looking it up.\n<lookup_ticket>\n${Object.entries(JSON.parse(argumentsJson) as Record<string, unknown>)
          .map(([key, value]) => `<${key}>${typeof value === "string" ? value : JSON.stringify(value)}</${key}>`)
          .join("\n")}\n</lookup_ticket>`,
        7,
      )
    : [
        { type: "tool_call", index: 0, id, name: "lookup_ticket", argumentsDelta: argumentsJson.slice(0, 9) },
        { type: "tool_call", index: 0, argumentsDelta: argumentsJson.slice(9) },
      ];

const finish = (protocol: Protocol): Chunk[] => (protocol === "xml" ? textChunks(complete(), 5) : [{ type: "tool_call", index: 0, id: "done", name: "attempt_completion", argumentsDelta: '{"result":"done"}' }]);

describe.each<Protocol>(["xml", "native"])("a custom tool in a real Task (%s protocol)", (protocol) => {
  it("the model calls it, the user approves its card, it runs with typed input and the model gets its result", async () => {
    const { executor, runs } = ticketTools(protocol);
    const { task, provider, host } = makeTask([call(protocol, "c1", '{"id":"T-7","count":3,"labels":["ui","bug"]}'), finish(protocol)], { protocol, extra: { toolExecutor: executor, ...nativeCalls } });
    const result = await task.startTask("what does T-7 say?");
    expect(result.status).toBe("completed");
    expect(runs).toEqual([{ id: "T-7", count: 3, labels: ["ui", "bug"] }]);
    expect(messageText(provider.requests[1]?.messages.at(-1))).toContain("ticket T-7: 3 comments, labels ui+bug");
    const ask = host.asks.find((message) => message.ask === "tool");
    expect(ask?.meta).toMatchObject({ tool: "custom_tool", name: "lookup_ticket", input: { id: "T-7", count: 3, labels: ["ui", "bug"] }, approval: "ask" });
    if (protocol === "native") {
      const schema = provider.requests[0]?.tools?.find((tool) => tool.name === "lookup_ticket");
      expect(schema?.inputSchema).toMatchObject({ properties: { count: { type: "integer" }, labels: { type: "array", items: { type: "string" } } }, required: ["id"] });
    }
  });

  it("a value zod refuses comes back to the model as a mistake naming the field", async () => {
    const { executor, runs } = ticketTools(protocol);
    const { task, provider } = makeTask([call(protocol, "c1", '{"id":"T-7","count":"many"}'), finish(protocol)], { protocol, extra: { toolExecutor: executor, ...nativeCalls } });
    await task.startTask("t");
    expect(runs).toEqual([]);
    expect(messageText(provider.requests[1]?.messages.at(-1))).toContain("invalid value for parameter 'count' of lookup_ticket");
  });

  it("counts against the tool-call budget like any tool", async () => {
    const { executor, runs } = ticketTools(protocol);
    const budget = new TaskBudget({ maxToolCalls: 1 });
    const { task, provider } = makeTask([call(protocol, "c1", '{"id":"A"}'), call(protocol, "c2", '{"id":"B"}'), finish(protocol)], {
      protocol,
      yes: true,
      extra: { toolExecutor: executor, budget, ...nativeCalls },
    });
    const result = await task.startTask("t");
    expect(result).toMatchObject({ status: "budget", error: expect.stringContaining("--max-tool-calls 1 (1 tool calls made)") });
    expect(runs.map((run) => run.id)).toEqual(["A"]);
    expect(provider.requests).toHaveLength(2);
  });
});
