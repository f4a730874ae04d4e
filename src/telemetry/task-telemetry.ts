/**
 * OpenTelemetry for one task (issue #36), on the official SDK, loaded only when
 * telemetry is configured (telemetry-config.ts). It reads what the task shows
 * (the Host's messages, already redacted of secrets) and turns it into a trace:
 * the task's span; under it a span per model request (model, tokens in, out and
 * cached, cost, time to first token, retries), per tool call (name, outcome,
 * duration, approval and who gave it), per hook and per compaction; and a span
 * per subagent under the parent's `use_subagents` call, with the child's own
 * requests and tools under it. Metrics count tokens, cost, requests, errors and
 * tool outcomes. Prompt text only with `includeContent`; file contents never.
 */
import { ROOT_CONTEXT, SpanStatusCode, TraceFlags, trace, type Attributes, type Context, type Counter, type Span, type Tracer } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { Host } from "../task/contracts/host.js";
import type { AskMessage, AskResponse, UiMessage } from "../task/contracts/messages.js";
import { parseTraceparent, type TelemetryConfig } from "./telemetry-config.js";

/** What the session knows of the task when it starts. */
export interface TaskTelemetryStart {
  taskId: string;
  task: string;
  model: string;
  provider: string;
  /** The W3C trace context it continues (a fleet job's data, an HTTP request's header). */
  traceparent?: string;
}

export interface TaskTelemetry {
  wrapHost(host: Host): Host;
  /** The task ended (any status): its span ends. */
  end(result: { status: string; error?: string }): void;
  /** Exports what is left; never waits more than about a second (a collector that is down). */
  shutdown(): Promise<void>;
  /** `traceparent` of the task's span, for work it hands on. */
  traceparent(): string;
}

interface Instruments {
  tokens: Counter;
  cost: Counter;
  requests: Counter;
  errors: Counter;
  toolCalls: Counter;
}

/** One task or one subagent: its span and what is open in it. */
interface Scope {
  context: Context;
  span: Span;
  /** A subagent's: the parent's `use_subagents` call it runs under. */
  call?: Span;
  request: { span: Span; startedAt: number; retries: number; firstAt?: number } | undefined;
  tools: Map<string, { span: Span; name: string; approval?: string; approvedBy?: string }>;
}

const toolSays: ReadonlySet<string> = new Set(["tool", "command", "completion_result"]);
const toolAsks: ReadonlySet<string> = new Set(["tool", "command", "followup", "use_mcp_server", "plan_mode_respond"]);
const firstTokenSays: ReadonlySet<string> = new Set(["text", "reasoning", "tool", "command", "completion_result"]);
const flushWithinMs = 1000;

const number = (meta: Record<string, unknown> | undefined, key: string): number | undefined => {
  const value = meta?.[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
};
const text = (meta: Record<string, unknown> | undefined, key: string): string | undefined => {
  const value = meta?.[key];
  return typeof value === "string" ? value : undefined;
};

async function exporters(config: TelemetryConfig): Promise<{ spans?: unknown; metrics?: unknown }> {
  const options = (url: string) => ({ url, headers: config.headers, timeoutMillis: flushWithinMs });
  if (config.protocol === "http/json") {
    const [tracing, metering] = await Promise.all([import("@opentelemetry/exporter-trace-otlp-http"), import("@opentelemetry/exporter-metrics-otlp-http")]);
    return {
      ...(config.tracesUrl ? { spans: new tracing.OTLPTraceExporter(options(config.tracesUrl)) } : {}),
      ...(config.metricsUrl ? { metrics: new metering.OTLPMetricExporter(options(config.metricsUrl)) } : {}),
    };
  }
  const [tracing, metering] = await Promise.all([import("@opentelemetry/exporter-trace-otlp-proto"), import("@opentelemetry/exporter-metrics-otlp-proto")]);
  return {
    ...(config.tracesUrl ? { spans: new tracing.OTLPTraceExporter(options(config.tracesUrl)) } : {}),
    ...(config.metricsUrl ? { metrics: new metering.OTLPMetricExporter(options(config.metricsUrl)) } : {}),
  };
}

export async function startTaskTelemetry(config: TelemetryConfig, start: TaskTelemetryStart): Promise<TaskTelemetry> {
  const resource = resourceFromAttributes(config.resource);
  const made = await exporters(config);
  type SpanExporter = ConstructorParameters<typeof BatchSpanProcessor>[0];
  type MetricExporter = ConstructorParameters<typeof PeriodicExportingMetricReader>[0]["exporter"];
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: made.spans === undefined ? [] : [new BatchSpanProcessor(made.spans as SpanExporter, { scheduledDelayMillis: 2000, exportTimeoutMillis: flushWithinMs })],
  });
  const meterProvider = new MeterProvider({
    resource,
    readers: made.metrics === undefined ? [] : [new PeriodicExportingMetricReader({ exporter: made.metrics as MetricExporter, exportIntervalMillis: 60_000, exportTimeoutMillis: flushWithinMs })],
  });
  const meter = meterProvider.getMeter("cairn");
  const instruments: Instruments = {
    tokens: meter.createCounter("cairn.tokens", { description: "tokens of model requests, by type (input, output, cached)" }),
    cost: meter.createCounter("cairn.cost", { description: "cost of model requests", unit: "USD" }),
    requests: meter.createCounter("cairn.requests", { description: "model requests" }),
    errors: meter.createCounter("cairn.errors", { description: "failed model requests and retries" }),
    toolCalls: meter.createCounter("cairn.tool_calls", { description: "tool calls, by tool and outcome" }),
  };
  return new MessageSpans(tracerProvider.getTracer("cairn"), instruments, config, start, async () => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, flushWithinMs);
      timer.unref();
    });
    await Promise.race([Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]), deadline]);
    clearTimeout(timer);
  });
}

class MessageSpans implements TaskTelemetry {
  private readonly root: Scope;
  private readonly scopes = new Map<string, Scope>();
  private ended = false;

  constructor(
    private readonly tracer: Tracer,
    private readonly instruments: Instruments,
    config: TelemetryConfig,
    private readonly start: TaskTelemetryStart,
    private readonly close: () => Promise<void>,
  ) {
    const remote = parseTraceparent(start.traceparent);
    const parent =
      remote === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, { traceId: remote.traceId, spanId: remote.spanId, traceFlags: remote.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE, isRemote: true });
    const attributes: Attributes = { "cairn.task.id": start.taskId, "gen_ai.request.model": start.model, "gen_ai.system": start.provider, ...(config.includeContent ? { "cairn.task.prompt": start.task } : {}) };
    const span = tracer.startSpan("cairn.task", { attributes }, parent);
    this.root = { span, context: trace.setSpan(parent, span), request: undefined, tools: new Map() };
  }

  traceparent(): string {
    const context = this.root.span.spanContext();
    return `00-${context.traceId}-${context.spanId}-0${context.traceFlags & 1}`;
  }

  wrapHost(host: Host): Host {
    return {
      onMessage: (message) => {
        this.observe(message);
        host.onMessage(message);
      },
      answerAsk: async (message: AskMessage, signal: AbortSignal): Promise<AskResponse> => {
        const response = await host.answerAsk(message, signal);
        const tool = this.scopeOf(message).tools.get(message.id);
        if (tool !== undefined) {
          tool.approval = response.response === "yes" ? "approved" : response.response === "no" ? "denied" : "answered with a message";
          tool.approvedBy = "user";
        }
        return response;
      },
    };
  }

  end(result: { status: string; error?: string }): void {
    if (this.ended) return;
    this.ended = true;
    for (const scope of [...this.scopes.values()].reverse()) this.closeScope(scope);
    this.closeScope(this.root, false);
    this.root.span.setAttribute("cairn.task.status", result.status);
    if (result.status !== "completed") this.root.span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? result.status });
    this.root.span.end();
  }

  async shutdown(): Promise<void> {
    this.end({ status: "aborted" });
    await this.close();
  }

  /** The scope of a message: the task's, or its subagent's (opened under the parent's `use_subagents` call). */
  private scopeOf(message: UiMessage): Scope {
    const id = message.subagentId;
    if (id === undefined) return this.root;
    let scope = this.scopes.get(id);
    if (scope === undefined) {
      const call = [...this.root.tools.values()].reverse().find((tool) => tool.name === "use_subagents");
      const parent = call === undefined ? this.root.context : trace.setSpan(this.root.context, call.span);
      const span = this.tracer.startSpan(`cairn.subagent ${id}`, { attributes: { "cairn.subagent.id": id } }, parent);
      scope = { span, context: trace.setSpan(parent, span), request: undefined, tools: new Map(), ...(call === undefined ? {} : { call: call.span }) };
      this.scopes.set(id, scope);
    }
    return scope;
  }

  private observe(message: UiMessage): void {
    if (this.ended) return;
    const scope = this.scopeOf(message);
    const kind = message.type === "say" ? message.say : message.ask;
    if (scope.request !== undefined && scope.request.firstAt === undefined && message.type === "say" && firstTokenSays.has(kind)) scope.request.firstAt = Date.now();
    if (message.type === "say" && kind === "api_req_started") return this.request(scope, message);
    if (message.type === "say" && kind === "error_retry") {
      if (scope.request !== undefined) scope.request.retries += 1;
      this.instruments.errors.add(1, { "error.type": text(message.meta, "kind") ?? "retry" });
      return;
    }
    if ((message.type === "say" && toolSays.has(kind)) || (message.type === "ask" && toolAsks.has(kind))) return this.tool(scope, message);
    if (message.type === "say" && kind === "hook_status" && !message.partial) return this.instant(scope, "cairn.hook", message);
    if (message.type === "say" && kind === "condense" && !message.partial) return this.instant(scope, "cairn.compaction", message);
    if (message.type === "say" && kind === "info" && text(message.meta, "childTaskId") !== undefined) scope.span.setAttribute("cairn.subagent.last_child_task", text(message.meta, "childTaskId")!);
  }

  private request(scope: Scope, message: UiMessage): void {
    if (scope.request === undefined) {
      // A new request: the tools of the previous round have all ended.
      this.endTools(scope);
      const span = this.tracer.startSpan(`chat ${this.start.model}`, { attributes: { "gen_ai.operation.name": "chat", "gen_ai.request.model": this.start.model, "gen_ai.system": this.start.provider } }, scope.context);
      scope.request = { span, startedAt: Date.now(), retries: 0 };
    }
    const meta = message.meta;
    if (message.partial || meta === undefined || number(meta, "tokensIn") === undefined) return;
    const request = scope.request;
    const tokensIn = number(meta, "tokensIn") ?? 0;
    const tokensOut = number(meta, "tokensOut") ?? 0;
    const cached = number(meta, "cacheReads") ?? 0;
    const cost = number(meta, "cost") ?? 0;
    request.span.setAttributes({
      "gen_ai.usage.input_tokens": tokensIn,
      "gen_ai.usage.output_tokens": tokensOut,
      "gen_ai.usage.cache_read_input_tokens": cached,
      "cairn.cost_usd": cost,
      "cairn.retries": request.retries,
      ...(request.firstAt === undefined ? {} : { "cairn.time_to_first_token_ms": request.firstAt - request.startedAt }),
      ...(text(meta, "stopReason") === undefined ? {} : { "gen_ai.response.finish_reasons": [text(meta, "stopReason")!] }),
    });
    const failed = text(meta, "cancelReason");
    if (failed !== undefined) {
      request.span.setStatus({ code: SpanStatusCode.ERROR, message: text(meta, "error") ?? failed });
      this.instruments.errors.add(1, { "error.type": failed });
    }
    const attributes = { "gen_ai.request.model": this.start.model };
    this.instruments.requests.add(1, attributes);
    this.instruments.tokens.add(tokensIn, { ...attributes, "gen_ai.token.type": "input" });
    this.instruments.tokens.add(tokensOut, { ...attributes, "gen_ai.token.type": "output" });
    if (cached > 0) this.instruments.tokens.add(cached, { ...attributes, "gen_ai.token.type": "cached" });
    this.instruments.cost.add(cost, attributes);
    request.span.end();
    scope.request = undefined;
  }

  private tool(scope: Scope, message: UiMessage): void {
    let tool = scope.tools.get(message.id);
    const name = text(message.meta, "tool") ?? (message.type === "say" ? message.say : message.ask);
    if (tool === undefined) {
      const span = this.tracer.startSpan(`tool ${name}`, { attributes: { "cairn.tool.name": name } }, scope.context);
      tool = { span, name };
      scope.tools.set(message.id, tool);
    }
    const status = text(message.meta, "status");
    if (status === undefined || message.partial) return;
    this.endTool(scope, message.id, status, number(message.meta, "durationMs"), text(message.meta, "error"));
  }

  private endTool(scope: Scope, id: string, status: string, durationMs?: number, error?: string): void {
    const tool = scope.tools.get(id);
    if (tool === undefined) return;
    scope.tools.delete(id);
    tool.span.setAttributes({
      "cairn.tool.outcome": status,
      "cairn.tool.approval": tool.approval ?? (status === "rejected" ? "refused" : "not asked"),
      "cairn.tool.approved_by": tool.approvedBy ?? (status === "rejected" ? "rules or hooks" : "settings, rules or --yes"),
      ...(durationMs === undefined ? {} : { "cairn.tool.duration_ms": durationMs }),
    });
    if (status === "error" || status === "rejected") tool.span.setStatus({ code: SpanStatusCode.ERROR, ...(error === undefined ? {} : { message: error }) });
    this.instruments.toolCalls.add(1, { "cairn.tool.name": tool.name, "cairn.tool.outcome": status });
    // The subagents of a `use_subagents` call end with it.
    for (const [subagentId, child] of this.scopes) {
      if (child.call !== tool.span) continue;
      this.closeScope(child);
      this.scopes.delete(subagentId);
    }
    tool.span.end();
  }

  private endTools(scope: Scope): void {
    // A card that ended without a failure status ran: its round is over.
    for (const id of [...scope.tools.keys()]) this.endTool(scope, id, "success");
  }

  private instant(scope: Scope, name: string, message: UiMessage): void {
    const attributes: Attributes = {};
    for (const [key, value] of Object.entries(message.meta ?? {})) {
      // Names, counts and outcomes; a compaction's summary is conversation text.
      if (key === "summary") continue;
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") attributes[`cairn.${key}`] = value;
    }
    this.tracer.startSpan(name, { attributes, startTime: message.ts }, scope.context).end();
  }

  private closeScope(scope: Scope, endSpan = true): void {
    this.endTools(scope);
    scope.request?.span.end();
    scope.request = undefined;
    if (endSpan) scope.span.end();
  }
}
