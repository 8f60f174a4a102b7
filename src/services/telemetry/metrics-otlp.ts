import { OTLPMetricExporter, OTLPMetricExporterBase } from '@opentelemetry/exporter-metrics-otlp-http';
// The protobuf encoding's parts, as the 0.223 line's own http/protobuf exporter builds it (that package is not needed for two lines).
import { ProtobufMetricsSerializer, MetricsExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import type { OtlpMetricsConfig } from './metrics-settings.ts';

/** OTLP over HTTP, in the encoding asked; URL, headers and timeout from the configuration and the OTEL_* variables. */
export function otlpExporter(otlp: OtlpMetricsConfig): OTLPMetricExporterBase {
  const options = { url: otlp.url, timeoutMillis: otlp.timeoutMs };
  if (otlp.protocol === 'http/json') return new OTLPMetricExporter(options);
  return new OTLPMetricExporterBase(
    createOtlpHttpExportDelegate(
      convertLegacyHttpOptions(options, 'METRICS', 'v1/metrics', { 'Content-Type': 'application/x-protobuf' }),
      ProtobufMetricsSerializer,
      'otlp_http_metric_exporter',
      MetricsExporterMetricsHelper,
      undefined,
    ),
    options,
  );
}
