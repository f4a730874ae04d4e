/**
 * OpenTelemetry through the real CLI (#36): `cairn run` with the standard
 * OTEL_* variables exports a trace to an OTLP/HTTP collector on loopback: the
 * task's span, a span per model request and per tool call under it, and a
 * span per subagent under the parent's `use_subagents` call with the child's
 * own requests under it; metrics of tokens, cost, requests and tool calls; no
 * prompt text unless asked for; and nothing at all without an endpoint.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scenario } from "../llm/scripted/scenario.js";
import { useCliFixture } from "../cli/test-support/cli-fixture.js";
import { complete, readFileCall, subagentRunHelpers, useSubagents } from "../cli/test-support/subagent-runs.js";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "./test-support/otlp-receiver.js";

const cli = useCliFixture();
const { runArgs } = subagentRunHelpers(cli);
let receiver: OtlpReceiver;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

const usage = { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 300 };
const scenario = (): Scenario => ({
  turns: [
    { text: useSubagents([{ prompt: "ALPHA: read alpha.txt", agent: "explore" }]), usage },
    { text: complete("The report is read."), usage },
  ],
  conversations: [
    {
      match: "ALPHA:",
      turns: [
        { text: readFileCall("alpha.txt"), usage },
        { text: complete("alpha says hello"), usage },
      ],
    },
  ],
});

const otel = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...cli.sandbox.env,
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  OTEL_SERVICE_NAME: "cairn-test",
  ...extra,
});

function children(spans: ReceivedSpan[], parent: ReceivedSpan | undefined): ReceivedSpan[] {
  return spans.filter((span) => parent !== undefined && span.parentSpanId === parent.spanId);
}

describe("OpenTelemetry", () => {
  it("a task with a subagent is one trace: requests and tools under the task, the subagent under the parent's use_subagents call; no prompt text by default", { timeout: 60_000 }, async () => {
    await writeFile(join(cli.sandbox.workspace, "alpha.txt"), "the alpha file says hello\n");
    await cli.startServer(scenario());
    const { runCli } = await import("../cli/test-support/cli-harness.js");
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const result = await runCli(runArgs(["--yes"], "SECRET-PROMPT-WORDS: explore"), { env: otel({ TRACEPARENT: traceparent }), cwd: cli.sandbox.workspace });
    expect(result.status, result.stderr).toBe(0);

    const spans = receiver.spans.filter((span) => span.traceId === "0af7651916cd43dd8448eb211c80319c");
    const task = spans.find((span) => span.name === "cairn.task");
    expect(task).toMatchObject({ parentSpanId: "b7ad6b7169203331", service: "cairn-test", attributes: { "cairn.task.status": "completed", "gen_ai.system": "anthropic" } });
    const underTask = children(spans, task);
    const requests = underTask.filter((span) => span.name.startsWith("chat "));
    expect(requests).toHaveLength(2);
    expect(requests[0]?.attributes).toMatchObject({ "gen_ai.usage.input_tokens": 1000, "gen_ai.usage.output_tokens": 200, "gen_ai.usage.cache_read_input_tokens": 300, "cairn.retries": 0 });
    expect(Number(requests[0]?.attributes["cairn.cost_usd"])).toBeGreaterThan(0);
    expect(Number(requests[0]?.attributes["cairn.time_to_first_token_ms"])).toBeGreaterThanOrEqual(0);
    const call = underTask.find((span) => span.name === "tool use_subagents");
    expect(call?.attributes).toMatchObject({ "cairn.tool.outcome": "success", "cairn.tool.approval": "not asked" });
    const subagent = children(spans, call).find((span) => span.name.startsWith("cairn.subagent "));
    expect(subagent).toBeDefined();
    const names = children(spans, subagent).map((span) => span.name);
    expect(names.filter((name) => name.startsWith("chat "))).toHaveLength(2);
    expect(names.filter((name) => name.startsWith("tool ")).sort()).toEqual(["tool attempt_completion", "tool read_file"]);
    expect(children(spans, subagent).filter((span) => span.name === "tool read_file")).toHaveLength(1);
    // Metrics went out at exit too.
    expect([...receiver.metricNames]).toEqual(expect.arrayContaining(["cairn.tokens", "cairn.cost", "cairn.requests", "cairn.tool_calls"]));
    // Neither the prompt nor the file's contents left the machine.
    expect(receiver.bodies.join("\n")).not.toContain("SECRET-PROMPT-WORDS");
    expect(receiver.bodies.join("\n")).not.toContain("alpha file says hello");
  });

  it("puts the prompt on the task span only when asked (CAIRN_OTEL_INCLUDE_CONTENT), and exports nothing without an endpoint", { timeout: 60_000 }, async () => {
    await cli.startServer({ turns: [{ text: complete("done"), usage }] });
    const before = receiver.bodies.length;
    const plain = await cli.run(["run", "--provider", "anthropic", "--base-url", cli.server!.url, "--api-key", "sk-test", "--yes", "UNTRACED-WORDS"]);
    expect(plain.status, plain.stderr).toBe(0);
    expect(receiver.bodies.length).toBe(before);

    await cli.startServer({ turns: [{ text: complete("done"), usage }] });
    const { runCli } = await import("../cli/test-support/cli-harness.js");
    const opted = await runCli(["run", "--provider", "anthropic", "--base-url", cli.server!.url, "--api-key", "sk-test", "--yes", "OPTED-IN-WORDS"], {
      env: otel({ CAIRN_OTEL_INCLUDE_CONTENT: "true" }),
      cwd: cli.sandbox.workspace,
    });
    expect(opted.status, opted.stderr).toBe(0);
    expect(receiver.spans.find((span) => span.name === "cairn.task" && span.attributes["cairn.task.prompt"] === "OPTED-IN-WORDS")).toBeDefined();
    expect(receiver.bodies.join("\n")).not.toContain("UNTRACED-WORDS");
    expect(receiver.bodies.join("\n")).not.toContain("sk-test");
  });
});
