import { gunzipSync } from 'node:zlib';
import { listen, type RunningServer } from './loopback-server.ts';

/** An attribute's value as OTLP/JSON writes it, read back as a plain value. */
export type AttributeValue = string | number | boolean | AttributeValue[] | undefined;

/** One span as the collector received it, flattened: ids in hex, attributes as an object. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, AttributeValue>;
  events: { name: string; attributes: Record<string, AttributeValue> }[];
  status: { code: number; message?: string };
  /** Its resource's attributes (service.name, service.instance.id…). */
  resource: Record<string, AttributeValue>;
  /** The instrumentation scope that made it. */
  scope: string;
}

/** A request that came in: its path, headers and (decompressed) body. */
export interface ReceivedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A number point of a metric in an OTLP/JSON export: its attributes, its value, and its resource's service.name. */
export interface MetricPoint {
  service: string;
  attributes: Record<string, AttributeValue>;
  value: number;
}

/**
 * An OpenTelemetry collector's stand-in: OTLP/HTTP on a loopback port, taking `http/json`
 * trace exports at /v1/traces (the spans are kept, parsed) and any other request as it came
 * (protobuf, metrics: read with `metricPoints`), answering each with OTLP's empty success.
 */
export class OtlpCollector {
  readonly spans: ReceivedSpan[] = [];
  readonly requests: ReceivedRequest[] = [];

  private constructor(private readonly server: RunningServer) {}

  static async start(): Promise<OtlpCollector> {
    let collector!: OtlpCollector;
    const server = await listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        collector.requests.push({ path: req.url ?? '', headers: req.headers, body });
        const json = String(req.headers['content-type']).startsWith('application/json');
        if (req.method === 'POST' && req.url === '/v1/traces' && json) collector.spans.push(...flatten(JSON.parse(body.toString('utf8')) as JsonRequest));
        res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
        res.end(json ? '{}' : '');
      });
    });
    collector = new OtlpCollector(server);
    return collector;
  }

  /** What OTEL_EXPORTER_OTLP_ENDPOINT is set to. */
  get endpoint(): string {
    return this.server.origin;
  }

  /** The points of a metric across the http/json exports received. */
  metricPoints(metric: string): MetricPoint[] {
    return this.requests
      .filter((request) => String(request.headers['content-type']).startsWith('application/json') && request.path !== '/v1/traces')
      .flatMap((request) => (JSON.parse(request.body.toString('utf8')) as JsonMetrics).resourceMetrics ?? [])
      .flatMap((rm) => {
        const service = String(attributes(rm.resource?.attributes)['service.name']);
        return (rm.scopeMetrics ?? []).flatMap((sm) =>
          (sm.metrics ?? [])
            .filter((m) => m.name === metric)
            .flatMap((m) => (m.sum ?? m.gauge ?? m.histogram)?.dataPoints ?? [])
            .map((point) => ({ service, attributes: attributes(point.attributes), value: Number(point.asDouble ?? point.asInt ?? point.count ?? 0) })),
        );
      });
  }

  /** Waits until the spans received make `check` return something. */
  async waitFor<T>(check: (spans: ReceivedSpan[]) => T | undefined | false, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = check(this.spans);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`the collector never received the spans wanted; it has:\n${this.spans.map(describe).join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

export function describe(span: ReceivedSpan): string {
  return `${span.traceId}/${span.spanId}<-${span.parentSpanId ?? '-'} ${span.name} ${JSON.stringify(span.attributes)}`;
}

interface JsonValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: JsonValue[] };
}
type JsonAttributes = { key: string; value: JsonValue }[] | undefined;

function value(v: JsonValue): AttributeValue {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(value);
  return undefined;
}

function attributes(list: JsonAttributes): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map(({ key, value: v }) => [key, value(v)]));
}

interface JsonRequest {
  resourceSpans?: {
    resource?: { attributes?: JsonAttributes };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: JsonAttributes;
        events?: { name: string; attributes?: JsonAttributes }[];
        status?: { code?: number; message?: string };
      }[];
    }[];
  }[];
}

interface JsonMetrics {
  resourceMetrics?: {
    resource?: { attributes?: JsonAttributes };
    scopeMetrics?: { metrics?: { name: string; sum?: JsonPoints; gauge?: JsonPoints; histogram?: JsonPoints }[] }[];
  }[];
}
interface JsonPoints {
  dataPoints?: { attributes?: JsonAttributes; asDouble?: number; asInt?: number | string; count?: number | string }[];
}

/** OTLP/JSON's ExportTraceServiceRequest, as spans. */
function flatten(request: JsonRequest): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((rs) =>
    (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((span): ReceivedSpan => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId || undefined,
        name: span.name,
        kind: span.kind,
        attributes: attributes(span.attributes),
        events: (span.events ?? []).map((event) => ({ name: event.name, attributes: attributes(event.attributes) })),
        status: { code: span.status?.code ?? 0, ...(span.status?.message ? { message: span.status.message } : {}) },
        resource: attributes(rs.resource?.attributes),
        scope: ss.scope?.name ?? '',
      })),
    ),
  );
}
