import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ScenarioTurn } from "../llm/scripted/scenario.js";
import { useCliFixture } from "./test-support/cli-fixture.js";
import { editDiff, expectTaskDone, xmlTaskTurns } from "./test-support/provider-run-scenario.js";

/**
 * #20 item 2 end to end: `bin/cairn run --provider gemini` against the scripted server speaking
 * Gemini's streamGenerateContent SSE format (src/llm/scripted/gemini-stream.ts, built from
 * @google/genai 2.32.0's types), through the real SDK.
 */
const cli = useCliFixture();

function geminiArgs(protocol: "native" | "xml", url: string): string[] {
  return ["--json", "--yes", "--parallel-tools", "--tool-protocol", protocol, "--provider", "gemini", "--base-url", url, "--api-key", "AIza-e2e-secret", "--model", "gemini-2.5-pro"];
}

type GeminiContent = { role: string; parts: Array<Record<string, unknown>> };

function contentsOf(request: { body: unknown } | undefined): GeminiContent[] {
  return ((request?.body as { contents?: unknown[] } | undefined)?.contents ?? []) as GeminiContent[];
}

const nativeTurns: ScenarioTurn[] = [
  { error: { status: 429, headers: { "retry-after": "1" } } },
  {
    reasoning: "Two files first.",
    reasoningSignature: "CiQBsig-1",
    text: "Writing both files.",
    toolCalls: [
      { name: "write_to_file", arguments: { path: "a.txt", content: "one\n" } },
      { name: "write_to_file", arguments: { path: "b.txt", content: "two\n" } },
    ],
  },
  { text: "Now editing the first one and concatenating the two", chunkSize: 4, dropAfterChunks: 8 },
  {
    reasoning: "Edit, then cat.",
    toolCalls: [
      { name: "replace_in_file", arguments: { path: "a.txt", diff: editDiff } },
      { name: "execute_command", arguments: { command: "cat a.txt b.txt > c.txt", requires_approval: false } },
    ],
  },
  { text: "I will write the big file now.", stopReason: "MAX_TOKENS" },
  { toolCalls: [{ name: "attempt_completion", arguments: { result: "all done" } }] },
];

const xmlTurns = xmlTaskTurns({ signature: "CiQBsig-1", outputLimit: "MAX_TOKENS" });

describe("cairn run --provider gemini end to end", () => {
  for (const protocol of ["native", "xml"] as const) {
    it(`${protocol} protocol: edits, a command, thoughts, two calls in one answer, 429 RetryInfo, a drop, an output-limit cut`, { timeout: 60_000 }, async () => {
      const server = await cli.startServer({ turns: protocol === "native" ? nativeTurns : xmlTurns });
      const result = await cli.run(["run", ...geminiArgs(protocol, server.url), "make the files"]);
      await expectTaskDone(result, { workspace: cli.sandbox.workspace, apiKey: "AIza-e2e-secret" });
      // Gemini sends function calls whole, so a native answer is cut in its text: the next request says so.
      if (protocol === "xml") expect(result.events.some((event) => event["say"] === "warning" && /output-token limit/.test(String(event["text"])))).toBe(true);
      expect(JSON.stringify(server.requests[5]?.body)).toMatch(/cut off by the output-token limit/);

      expect(server.requests.map((request) => request.path)).toEqual(Array(6).fill("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"));
      // The thought signature goes back on the part it came with.
      const third = contentsOf(server.requests[2]);
      const model = third.find((content) => content.role === "model");
      expect(model?.parts.some((part) => part["thoughtSignature"] === "CiQBsig-1")).toBe(true);
      expect(JSON.stringify(third)).not.toContain("Two files first.");
      if (protocol === "native") {
        expect(model?.parts.filter((part) => part["functionCall"] !== undefined).map((part) => (part["functionCall"] as { name: string }).name)).toEqual(["write_to_file", "write_to_file"]);
        expect(model?.parts.find((part) => part["functionCall"] !== undefined)?.["thoughtSignature"]).toBe("CiQBsig-1");
        const answers = third[2]?.parts.filter((part) => part["functionResponse"] !== undefined) ?? [];
        expect(answers.map((part) => (part["functionResponse"] as { name: string }).name)).toEqual(["write_to_file", "write_to_file"]);
      } else {
        expect((server.requests[2]?.body as Record<string, unknown>)["tools"]).toBeUndefined();
      }
    });
  }

  it("a task started on gemini resumes on anthropic, and back on gemini with a note for the thinking it cannot take", { timeout: 60_000 }, async () => {
    const server = await cli.startServer({
      turns: [
        { reasoning: "Plan.", reasoningSignature: "CiQBsig-2", toolCalls: [{ name: "write_to_file", arguments: { path: "a.txt", content: "one\n" } }] },
        { toolCalls: [{ name: "attempt_completion", arguments: { result: "first part done" } }] },
        { reasoning: "Anthropic thinks.", reasoningSignature: "EqQBanthropic-sig", toolCalls: [{ id: "toolu_1", name: "write_to_file", arguments: { path: "b.txt", content: "two\n" } }] },
        { toolCalls: [{ id: "toolu_2", name: "attempt_completion", arguments: { result: "second part done" } }] },
        { toolCalls: [{ name: "attempt_completion", arguments: { result: "third part done" } }] },
      ],
    });
    const first = await cli.run(["run", ...geminiArgs("native", server.url), "part one"]);
    expect(first.status).toBe(0);
    const taskId = String(first.events[0]?.["taskId"]);

    const anthropic = ["--json", "--yes", "--tool-protocol", "native", "--provider", "anthropic", "--base-url", server.url, "--api-key", "k", "--model", "claude-sonnet-5-5"];
    const second = await cli.run(["resume", ...anthropic, taskId, "part two"]);
    expect(second.status).toBe(0);
    expect(second.stderr).toMatch(/1 reasoning block\(s\) from gemini left out of the request: the Anthropic API/);
    const anthropicBody = JSON.stringify(server.requests[2]?.body);
    expect(server.requests[2]?.path).toBe("/v1/messages");
    expect(anthropicBody).toMatch(/"type":"tool_use","id":"gemini_[0-9a-f]+","name":"write_to_file"/);
    expect(anthropicBody).not.toContain("CiQBsig-2");

    const third = await cli.run(["resume", ...geminiArgs("native", server.url), taskId, "part three"]);
    expect(third.status).toBe(0);
    expect(third.events.some((event) => event["say"] === "completion_result" && event["text"] === "third part done")).toBe(true);
    expect(third.stderr).toMatch(/reasoning block\(s\) from anthropic left out of the request: the Gemini API/);
    const contents = JSON.stringify(contentsOf(server.requests[4]));
    expect(contents).not.toContain("EqQBanthropic-sig");
    expect(contents).toContain('"thoughtSignature":"CiQBsig-2"');
    expect(contents).toContain('"functionResponse":{"name":"write_to_file"');
    expect(await readFile(join(cli.sandbox.workspace, "b.txt"), "utf8")).toBe("two\n");
  });
});
