import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { expectTaskDone, nativeTaskTurns, xmlTaskTurns } from "./test-support/provider-run-scenario.js";

/**
 * #20 item 1 end to end: `bin/cairn run --provider openai-responses` against the scripted server
 * speaking the Responses SSE format (src/llm/scripted/responses-stream.ts, built from the openai
 * SDK's ResponseStreamEvent types), through the real openai SDK.
 */
const cli = useCliFixture();

function responsesArgs(protocol: "native" | "xml", url: string): string[] {
  return ["--json", "--yes", "--parallel-tools", "--tool-protocol", protocol, "--provider", "openai-responses", "--base-url", `${url}/v1`, "--api-key", "sk-e2e-secret", "--model", "gpt-5.4"];
}

function inputOf(request: { body: unknown } | undefined): Array<Record<string, unknown>> {
  return ((request?.body as { input?: unknown[] } | undefined)?.input ?? []) as Array<Record<string, unknown>>;
}

const nativeTurns = nativeTaskTurns({ ids: "call_", outputLimit: "max_output_tokens", signature: "gAAAA-encrypted-1", reasonBeforeEdit: true, usage: { inputTokens: 1000, outputTokens: 200, reasoningTokens: 120 } });
const xmlTurns = xmlTaskTurns({ signature: "gAAAA-encrypted-1", outputLimit: "max_output_tokens" });

describe("cairn run --provider openai-responses end to end", () => {
  for (const protocol of ["native", "xml"] as const) {
    it(`${protocol} protocol: edits, a command, reasoning, two calls in one answer, 429 retry-after, a drop, an output-limit cut`, { timeout: 60_000 }, async () => {
      const server = await cli.startServer({ turns: protocol === "native" ? nativeTurns : xmlTurns });
      const result = await cli.run(["run", ...responsesArgs(protocol, server.url), "make the files"]);
      await expectTaskDone(result, { workspace: cli.sandbox.workspace, apiKey: "sk-e2e-secret" });
      expect(result.events.some((event) => event["say"] === "warning" && /output-token limit/.test(String(event["text"])))).toBe(true);

      // Every request went to the Responses endpoint; 429 and the drop were retried (6 requests).
      expect(server.requests.map((request) => request.path)).toEqual(Array(6).fill("/v1/responses"));
      // The encrypted reasoning item goes back whole on the next requests (store false).
      const third = inputOf(server.requests[2]);
      expect(third).toContainEqual({ type: "reasoning", id: expect.stringMatching(/^rs_/), summary: [{ type: "summary_text", text: "Two files first." }], encrypted_content: "gAAAA-encrypted-1" });
      expect((server.requests[2]?.body as Record<string, unknown>)["store"]).toBe(false);
      if (protocol === "native") {
        const calls = third.filter((item) => item["type"] === "function_call" || item["type"] === "function_call_output");
        expect(calls.map((item) => `${String(item["type"])}:${String(item["call_id"])}`)).toEqual(["function_call:call_a", "function_call:call_b", "function_call_output:call_a", "function_call_output:call_b"]);
        expect(third.filter((item) => item["type"] === "function_call_output").map((item) => item["call_id"])).toEqual(["call_a", "call_b"]);
        expect(JSON.stringify(server.requests[5]?.body)).toMatch(/cut off by the output-token limit/);
      } else {
        expect(third.some((item) => item["type"] === "function_call")).toBe(false);
        expect((server.requests[2]?.body as Record<string, unknown>)["tools"]).toBeUndefined();
      }
    });
  }

  it("a task started on openai-responses resumes on anthropic, and one started on anthropic resumes on openai-responses with a note", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({
      turns: [
        { reasoning: "Plan.", reasoningSignature: "gAAAA-encrypted-2", toolCalls: [{ id: "call_a", name: "write_to_file", arguments: { path: "a.txt", content: "one\n" } }] },
        { toolCalls: [{ id: "call_b", name: "attempt_completion", arguments: { result: "first part done" } }] },
        // Anthropic, resumed: it receives the Responses history as tool_use/tool_result pairs.
        { reasoning: "Anthropic thinks.", reasoningSignature: "EqQBanthropic-sig", toolCalls: [{ id: "toolu_1", name: "write_to_file", arguments: { path: "b.txt", content: "two\n" } }] },
        { toolCalls: [{ id: "toolu_2", name: "attempt_completion", arguments: { result: "second part done" } }] },
        // Back on the Responses API: the Anthropic thinking cannot go there.
        { toolCalls: [{ id: "call_c", name: "attempt_completion", arguments: { result: "third part done" } }] },
      ],
    });
    const first = await cli.run(["run", ...responsesArgs("native", server.url), "part one"]);
    expect(first.status).toBe(0);
    const taskId = String(first.events[0]?.["taskId"]);

    const anthropic = ["--json", "--yes", "--tool-protocol", "native", "--provider", "anthropic", "--base-url", server.url, "--api-key", "k", "--model", "claude-sonnet-5-5"];
    const second = await cli.run(["resume", ...anthropic, taskId, "part two"]);
    expect(second.status).toBe(0);
    expect(second.events.some((event) => event["say"] === "completion_result" && event["text"] === "second part done")).toBe(true);
    expect(second.stderr).toMatch(/1 reasoning block\(s\) from openai-responses left out of the request: the Anthropic API/);
    const anthropicBody = JSON.stringify(server.requests[2]?.body);
    expect(server.requests[2]?.path).toBe("/v1/messages");
    expect(anthropicBody).toContain('"type":"tool_use","id":"call_a"');
    expect(anthropicBody).toContain('"tool_use_id":"call_a"');
    expect(anthropicBody).not.toContain("gAAAA-encrypted-2");

    const third = await cli.run(["resume", ...responsesArgs("native", server.url), taskId, "part three"]);
    expect(third.status).toBe(0);
    expect(third.stderr).toMatch(/reasoning block\(s\) from anthropic left out of the request/);
    const input = inputOf(server.requests[4]);
    expect(JSON.stringify(input)).not.toContain("EqQBanthropic-sig");
    expect(input).toContainEqual(expect.objectContaining({ type: "reasoning", encrypted_content: "gAAAA-encrypted-2" }));
    expect(input).toContainEqual({ type: "function_call_output", call_id: "toolu_1", output: expect.any(String) });
    expect(await readFile(join(cli.sandbox.workspace, "b.txt"), "utf8")).toBe("two\n");
  });
});
