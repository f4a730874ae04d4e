/**
 * An OTLP/HTTP collector on loopback for tests (#36): it accepts the export
 * requests at `/v1/traces` and `/v1/metrics`, JSON (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`)
 * or protobuf (`http/protobuf`, read by otlp-protobuf.ts, as its content type says),
 * and keeps the spans and metric names they carry.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { metricsRequest, traceRequest } from "./otlp-protobuf.js";

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, string | number | boolean>;
  /** `service.name` of the resource that sent it. */
  service: string;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  metricNames: Set<string>;
  /** Every request body as received, as text (for "no prompt text" checks). */
  bodies: string[];
  /** The content type of every request, in order. */
  contentTypes: string[];
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };

function valueOf(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue ?? "";
}

const attributesOf = (list: KeyValue[] | undefined): Record<string, string | number | boolean> => Object.fromEntries((list ?? []).map((entry) => [entry.key, valueOf(entry.value)]));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metricNames = new Set<string>();
  const bodies: string[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      bodies.push(body.toString("utf8"));
      const contentType = request.headers["content-type"] ?? "";
      contentTypes.push(contentType);
      const protobuf = contentType === "application/x-protobuf";
      try {
        const parsed = !protobuf ? (JSON.parse(body.toString("utf8")) as Record<string, unknown>) : request.url === "/v1/traces" ? traceRequest(body) : metricsRequest(body);
        if (request.url === "/v1/traces") {
          for (const resourceSpans of (parsed["resourceSpans"] ?? []) as Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }> }>) {
            const service = String(attributesOf(resourceSpans.resource?.attributes)["service.name"] ?? "");
            for (const scope of resourceSpans.scopeSpans ?? [])
              for (const span of scope.spans ?? [])
                spans.push({
                  name: String(span["name"]),
                  traceId: String(span["traceId"]),
                  spanId: String(span["spanId"]),
                  parentSpanId: typeof span["parentSpanId"] === "string" ? span["parentSpanId"] : "",
                  attributes: attributesOf(span["attributes"] as KeyValue[]),
                  service,
                });
          }
        } else if (request.url === "/v1/metrics") {
          for (const resourceMetrics of (parsed["resourceMetrics"] ?? []) as Array<{ scopeMetrics?: Array<{ metrics?: Array<{ name: string }> }> }>)
            for (const scope of resourceMetrics.scopeMetrics ?? []) for (const metric of scope.metrics ?? []) metricNames.add(metric.name);
        }
      } catch {
        // Neither: kept in `bodies` only.
      }
      // An empty export response, in the request's encoding.
      response.writeHead(200, { "content-type": protobuf ? "application/x-protobuf" : "application/json" });
      response.end(protobuf ? "" : "{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans, metricNames, bodies, contentTypes, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
