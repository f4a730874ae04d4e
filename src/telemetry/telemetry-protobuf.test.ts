/**
 * OTLP/HTTP protobuf, the default protocol (#36): a task's telemetry reaches a
 * collector on loopback as protobuf export requests, which the collector decodes
 * into the same trace (the task's span, a request and a tool under it, with
 * their attributes) and metrics that the JSON path carries (telemetry-run.test.ts
 * runs that one through the real CLI).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UiMessage } from "../task/contracts/messages.js";
import { startTaskTelemetry } from "./task-telemetry.js";
import { telemetryConfig } from "./telemetry-config.js";
import { startOtlpReceiver, type OtlpReceiver } from "./test-support/otlp-receiver.js";

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

const say = (id: string, kind: "api_req_started" | "tool", partial: boolean, meta: Record<string, unknown>): UiMessage => ({ id, ts: Date.now(), type: "say", say: kind, text: "", partial, meta });

describe("OpenTelemetry over OTLP/HTTP protobuf", () => {
  it("exports the task's trace and metrics as protobuf that a collector decodes: spans with their parents and attributes, and the counters", async () => {
    // No OTEL_EXPORTER_OTLP_PROTOCOL: protobuf is the default.
    const config = telemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: "cairn-proto" }, undefined);
    expect(config?.protocol).toBe("http/protobuf");
    const telemetry = await startTaskTelemetry(config!, { taskId: "task-proto", task: "a prompt", model: "claude-test", provider: "anthropic" });
    const shown: UiMessage[] = [];
    const host = telemetry.wrapHost({ onMessage: (message) => shown.push(message), answerAsk: async () => ({ response: "yes" }) });
    host.onMessage(say("request-1", "api_req_started", true, {}));
    host.onMessage(say("request-1", "api_req_started", false, { tokensIn: 1200, tokensOut: 340, cacheReads: 56, cost: 0.0123, stopReason: "tool_use" }));
    host.onMessage(say("tool-1", "tool", true, { tool: "read_file" }));
    host.onMessage(say("tool-1", "tool", false, { tool: "read_file", status: "success", durationMs: 7 }));
    telemetry.end({ status: "completed" });
    await telemetry.shutdown();

    expect(shown).toHaveLength(4);
    expect(receiver.contentTypes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(receiver.contentTypes)).toEqual(new Set(["application/x-protobuf"]));
    const task = receiver.spans.find((span) => span.name === "cairn.task");
    expect(task).toMatchObject({ service: "cairn-proto", parentSpanId: "", attributes: { "cairn.task.id": "task-proto", "cairn.task.status": "completed", "gen_ai.system": "anthropic" } });
    expect(task?.traceId).toMatch(/^[0-9a-f]{32}$/);
    const request = receiver.spans.find((span) => span.name === "chat claude-test");
    expect(request).toMatchObject({ traceId: task?.traceId, parentSpanId: task?.spanId });
    expect(request?.attributes).toMatchObject({ "gen_ai.usage.input_tokens": 1200, "gen_ai.usage.output_tokens": 340, "gen_ai.usage.cache_read_input_tokens": 56, "cairn.cost_usd": 0.0123 });
    const tool = receiver.spans.find((span) => span.name === "tool read_file");
    expect(tool).toMatchObject({ parentSpanId: task?.spanId, attributes: { "cairn.tool.outcome": "success", "cairn.tool.duration_ms": 7 } });
    expect([...receiver.metricNames]).toEqual(expect.arrayContaining(["cairn.tokens", "cairn.cost", "cairn.requests", "cairn.tool_calls"]));
    // The prompt is not exported unless asked for.
    expect(receiver.bodies.join("\n")).not.toContain("a prompt");
  });
});
