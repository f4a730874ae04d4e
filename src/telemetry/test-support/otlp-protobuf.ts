/**
 * Reads OTLP/HTTP protobuf export requests (`OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf`)
 * for the test collector (otlp-receiver.ts): a minimal reader of the protobuf wire
 * format, and the fields of opentelemetry-proto's trace and metrics messages the
 * tests look at, turned into the shape of the JSON encoding (ids as hex).
 */

/** One message's fields by number: varints as bigint, everything else as its bytes. */
type Fields = Map<number, Array<bigint | Buffer>>;

function decode(bytes: Buffer): Fields {
  const fields: Fields = new Map();
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = bytes[at++];
      if (byte === undefined) throw new Error("protobuf: a varint runs past the end");
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
  };
  const take = (length: number): Buffer => {
    if (at + length > bytes.length) throw new Error("protobuf: a field runs past the end");
    at += length;
    return bytes.subarray(at - length, at);
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const wire = key & 7;
    const value = wire === 0 ? varint() : wire === 1 ? take(8) : wire === 2 ? take(Number(varint())) : wire === 5 ? take(4) : undefined;
    if (value === undefined) throw new Error(`protobuf: wire type ${wire} is not read here`);
    fields.set(key >>> 3, [...(fields.get(key >>> 3) ?? []), value]);
  }
  return fields;
}

const messages = (fields: Fields, field: number): Fields[] => (fields.get(field) ?? []).filter((value): value is Buffer => Buffer.isBuffer(value)).map(decode);
const bytesOf = (fields: Fields, field: number): Buffer => {
  const value = fields.get(field)?.[0];
  return Buffer.isBuffer(value) ? value : Buffer.alloc(0);
};
const stringOf = (fields: Fields, field: number): string => bytesOf(fields, field).toString("utf8");

/** AnyValue: string (1), bool (2), int (3), double (4); KeyValue: key (1), value (2). */
function attributes(list: Fields[]): Array<{ key: string; value: Record<string, unknown> }> {
  return list.map((pair) => {
    const value: Fields = messages(pair, 2)[0] ?? new Map();
    const raw = (field: number): bigint | Buffer | undefined => value.get(field)?.[0];
    const any = value.has(1)
      ? { stringValue: stringOf(value, 1) }
      : value.has(2)
        ? { boolValue: raw(2) === 1n }
        : value.has(3)
          ? { intValue: Number(BigInt.asIntN(64, raw(3) as bigint)) }
          : value.has(4)
            ? { doubleValue: bytesOf(value, 4).readDoubleLE(0) }
            : {};
    return { key: stringOf(pair, 1), value: any };
  });
}

/** ExportTraceServiceRequest: resource_spans (1) > resource (1) with attributes (1), scope_spans (2) > spans (2). */
export function traceRequest(body: Buffer): Record<string, unknown> {
  return {
    resourceSpans: messages(decode(body), 1).map((resourceSpans) => ({
      resource: { attributes: attributes(messages(messages(resourceSpans, 1)[0] ?? new Map<number, Array<bigint | Buffer>>(), 1)) },
      scopeSpans: messages(resourceSpans, 2).map((scope) => ({
        // Span: trace_id (1), span_id (2), parent_span_id (4), name (5), attributes (9).
        spans: messages(scope, 2).map((span) => ({
          traceId: bytesOf(span, 1).toString("hex"),
          spanId: bytesOf(span, 2).toString("hex"),
          parentSpanId: bytesOf(span, 4).toString("hex"),
          name: stringOf(span, 5),
          attributes: attributes(messages(span, 9)),
        })),
      })),
    })),
  };
}

/** ExportMetricsServiceRequest: resource_metrics (1) > scope_metrics (2) > metrics (2) > name (1). */
export function metricsRequest(body: Buffer): Record<string, unknown> {
  return {
    resourceMetrics: messages(decode(body), 1).map((resourceMetrics) => ({
      scopeMetrics: messages(resourceMetrics, 2).map((scope) => ({ metrics: messages(scope, 2).map((metric) => ({ name: stringOf(metric, 1) })) })),
    })),
  };
}
