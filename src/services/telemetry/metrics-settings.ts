/** What the metrics are configured with (read and checked by src/services/config/metrics.ts). */

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
