/**
 * Whether OpenTelemetry is on, and where it sends (issue #36): off by default;
 * on when the standard variables name an OTLP endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `_TRACES_ENDPOINT`, `_METRICS_ENDPOINT`) or the
 * `telemetry` settings block names one. Read without loading any OTel package:
 * they are imported only when this returns a configuration (task-telemetry.ts).
 */

/** The `telemetry` block of config.json. */
export interface TelemetrySetting {
  /** Base URL of an OTLP/HTTP collector (`/v1/traces` and `/v1/metrics` are added). */
  endpoint?: string;
  protocol?: "http/json" | "http/protobuf";
  headers?: Record<string, string>;
  serviceName?: string;
  resourceAttributes?: Record<string, string>;
  /** Prompt text on the task span (off by default; file contents are never exported). */
  includeContent?: boolean;
}

export interface TelemetryConfig {
  tracesUrl: string | undefined;
  metricsUrl: string | undefined;
  protocol: "http/json" | "http/protobuf";
  headers: Record<string, string>;
  resource: Record<string, string>;
  includeContent: boolean;
}

/** `k1=v1,k2=v2` (values URL-encoded), as the OTel specification writes headers and resource attributes. */
export function parseKeyValues(text: string | undefined): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const part of (text ?? "").split(",")) {
    const at = part.indexOf("=");
    if (at <= 0) continue;
    try {
      pairs[decodeURIComponent(part.slice(0, at).trim())] = decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      // A malformed pair is left out, as the SDK does.
    }
  }
  return pairs;
}

const withPath = (base: string | undefined, path: string): string | undefined => (base === undefined || base === "" ? undefined : `${base.replace(/\/+$/, "")}${path}`);

/** The configuration, or undefined when telemetry is off. Variables win over the settings block. */
export function telemetryConfig(env: NodeJS.ProcessEnv, setting: TelemetrySetting | undefined): TelemetryConfig | undefined {
  if (env["OTEL_SDK_DISABLED"] === "true") return undefined;
  const base = env["OTEL_EXPORTER_OTLP_ENDPOINT"] || setting?.endpoint;
  const tracesUrl = env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] || withPath(base, "/v1/traces");
  const metricsUrl = env["OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"] || withPath(base, "/v1/metrics");
  if (tracesUrl === undefined && metricsUrl === undefined) return undefined;
  const protocol = env["OTEL_EXPORTER_OTLP_PROTOCOL"] ?? setting?.protocol ?? "http/protobuf";
  const serviceName = env["OTEL_SERVICE_NAME"] || setting?.serviceName || "cairn";
  const contentFlag = env["CAIRN_OTEL_INCLUDE_CONTENT"] ?? env["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"];
  return {
    tracesUrl,
    metricsUrl,
    protocol: protocol === "http/json" ? "http/json" : "http/protobuf",
    headers: { ...setting?.headers, ...parseKeyValues(env["OTEL_EXPORTER_OTLP_HEADERS"]) },
    resource: { ...setting?.resourceAttributes, ...parseKeyValues(env["OTEL_RESOURCE_ATTRIBUTES"]), "service.name": serviceName },
    includeContent: contentFlag === undefined ? setting?.includeContent === true : contentFlag === "true",
  };
}

/** A W3C `traceparent` (`00-<trace id>-<span id>-<flags>`), or undefined when malformed. */
export function parseTraceparent(value: string | undefined): { traceId: string; spanId: string; sampled: boolean } | undefined {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(value?.trim() ?? "");
  if (match === null || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined;
  return { traceId: match[1]!, spanId: match[2]!, sampled: (parseInt(match[3]!, 16) & 1) === 1 };
}
