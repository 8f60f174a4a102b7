import { listen } from './loopback-server.ts';

/** One export a collector received: its path, headers and body. */
export interface Export {
  path: string;
  contentType: string;
  authorization: string | undefined;
  body: Buffer;
}

/** A number point of OTLP/JSON: its attributes as a plain object, and its value. */
export interface JsonPoint {
  attributes: Record<string, string | number>;
  value: number;
}

/**
 * An OpenTelemetry collector's stand-in: OTLP over HTTP on a loopback port, taking every
 * export (`POST /v1/metrics`, answered 200 as a collector does) and keeping it as sent.
 */
export async function startOtlpCollector() {
  const received: Export[] = [];
  const server = await listen((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
        authorization: request.headers.authorization,
        body: Buffer.concat(chunks),
      });
      const json = (request.headers['content-type'] ?? '').includes('json');
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : undefined);
    });
  });
  return {
    origin: server.origin,
    received,
    close: () => server.close(),
    /** The points of a metric across the JSON exports received, with the resource's service.name of each. */
    jsonPoints(metric: string): (JsonPoint & { service: string })[] {
      return received
        .filter((e) => e.contentType.includes('json'))
        .flatMap((e) => (JSON.parse(e.body.toString('utf8')) as OtlpJson).resourceMetrics)
        .flatMap((resource) => {
          const service = String(attributesOf(resource.resource?.attributes).service_name ?? attributesOf(resource.resource?.attributes)['service.name']);
          return resource.scopeMetrics.flatMap((scope) =>
            scope.metrics
              .filter((m) => m.name === metric)
              .flatMap((m) => (m.sum ?? m.gauge ?? m.histogram)?.dataPoints ?? [])
              .map((point) => ({
                service,
                attributes: attributesOf(point.attributes),
                value: Number(point.asDouble ?? point.asInt ?? point.count ?? 0),
              })),
          );
        });
    },
  };
}

interface OtlpJson {
  resourceMetrics: {
    resource?: { attributes?: KeyValue[] };
    scopeMetrics: { metrics: { name: string; sum?: Points; gauge?: Points; histogram?: Points }[] }[];
  }[];
}
interface Points {
  dataPoints: { attributes?: KeyValue[]; asDouble?: number; asInt?: number | string; count?: number | string }[];
}
interface KeyValue {
  key: string;
  value: { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
}

function attributesOf(list: KeyValue[] | undefined): Record<string, string | number> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, kv.value.stringValue ?? Number(kv.value.intValue ?? kv.value.doubleValue ?? 0)]));
}
