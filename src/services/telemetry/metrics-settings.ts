import { ConfigError } from '../../kernel/errors/config-error.ts';
import { otlpHeaderValues } from '../../kernel/log/secrets.ts';
import { hostPort } from '../../kernel/settings/listen-address.ts';
import { commaList, onOff, wholeNumber } from '../../kernel/settings/variables.ts';

/** Where the OTLP exporter sends metrics, and how. */
export interface OtlpMetricsConfig {
  /** The full URL metrics are POSTed to (OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/metrics). */
  url: string;
  protocol: OtlpProtocol;
  /** OTEL_METRIC_EXPORT_INTERVAL. */
  intervalMs: number;
  /** OTEL_METRIC_EXPORT_TIMEOUT. */
  timeoutMs: number;
}

/** The OTLP protocols the bridge exports in, metrics and spans alike (no gRPC exporter is installed). */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** The bridge's and workers' metrics: who may scrape them, where, and where they are pushed. */
export interface MetricsConfig {
  /** OTEL_SDK_DISABLED=true: no instrument records, nothing is served or pushed. */
  disabled: boolean;
  /** BRIDGE_METRICS_TOKEN: what a caller other than this machine shows to scrape `/metrics` on the web server. */
  token: string | undefined;
  /** BRIDGE_METRICS_ADDR: a listener serving only `/metrics` (a worker's way to be scraped). */
  listen: { host: string; port: number } | undefined;
  /** OTLP export, when an endpoint is set (and OTEL_METRICS_EXPORTER does not say none). */
  otlp: OtlpMetricsConfig | undefined;
  /** What no log line may show: the token, and the values of the OTLP headers (they often carry the collector's). */
  secrets: string[];
}

/** The standard's defaults: a minute between exports, 30 s for one. */
const DEFAULT_INTERVAL_MS = 60_000;
const DEFAULT_TIMEOUT_MS = 30_000;

export function metricsConfig(env: NodeJS.ProcessEnv): MetricsConfig {
  const disabled = onOff(env, 'OTEL_SDK_DISABLED', false, ['true', 'false']);
  const token = env.BRIDGE_METRICS_TOKEN?.trim() || undefined;
  if (token !== undefined && !/^[\x21-\x7e]{16,}$/.test(token))
    throw new ConfigError('BRIDGE_METRICS_TOKEN: expected at least 16 printable characters and no spaces (what Prometheus sends as its bearer token)');
  const addr = env.BRIDGE_METRICS_ADDR?.trim();
  const listen = addr ? hostPort('BRIDGE_METRICS_ADDR', addr, '0.0.0.0:9464') : undefined;
  const headers = ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_METRICS_HEADERS'].flatMap((name) => otlpHeaderValues(env[name] ?? ''));
  return { disabled, token, listen, otlp: otlp(env), secrets: [...(token ? [token] : []), ...headers] };
}

function otlp(env: NodeJS.ProcessEnv): OtlpMetricsConfig | undefined {
  const exporters = commaList(env.OTEL_METRICS_EXPORTER).map((name) => name.toLowerCase());
  const unknown = exporters.find((name) => !['otlp', 'prometheus', 'none'].includes(name));
  if (unknown) throw new ConfigError(`OTEL_METRICS_EXPORTER: expected otlp, prometheus or none, got "${unknown}"`);
  const own = env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT?.trim();
  const shared = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const name = own ? 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  // The shared endpoint is a base the signal's path goes under; the signal's own is used as written.
  const url = own || (shared ? `${shared.replace(/\/+$/, '')}/v1/metrics` : undefined);
  if (!url || exporters.includes('none') || (exporters.length && !exporters.includes('otlp'))) return undefined;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new ConfigError(`${name}: expected the http(s) address of an OTLP collector, like http://127.0.0.1:4318, got "${own || shared}"`);
  const protocolName = env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL?.trim() ? 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[protocolName]?.trim().toLowerCase() || 'http/protobuf';
  if (!(OTLP_PROTOCOLS as readonly string[]).includes(protocol))
    throw new ConfigError(
      `${protocolName}: expected http/protobuf or http/json, got "${env[protocolName]!.trim()}"${protocol === 'grpc' ? ' (gRPC is not supported: a collector takes OTLP over HTTP on port 4318)' : ''}`,
    );
  return {
    url,
    protocol: protocol as OtlpProtocol,
    intervalMs: wholeNumber(env, 'OTEL_METRIC_EXPORT_INTERVAL', DEFAULT_INTERVAL_MS, 1, 'milliseconds'),
    timeoutMs: wholeNumber(env, 'OTEL_METRIC_EXPORT_TIMEOUT', DEFAULT_TIMEOUT_MS, 1, 'milliseconds'),
  };
}
