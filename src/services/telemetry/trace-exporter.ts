import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer, TraceExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
import type { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Log } from '../../kernel/log/logger.ts';
import type { OtlpProtocol } from './metrics-settings.ts';

/**
 * The SDK's tracer provider, its spans batched to OTLP/HTTP over `protocol`, failures said in
 * `log`. Here, with the SDK imported statically, since this file is loaded only when traces
 * are exported (the build's bundle gives a CommonJS package imported with `import()` only its
 * default export).
 */
export function otlpTracerProvider(protocol: OtlpProtocol, resource: Resource, log: Log): BasicTracerProvider {
  return new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new ReportingExporter(otlpTraceExporter(protocol), log))] });
}

/**
 * The OTLP/HTTP exporter for `protocol`. Its endpoint, headers, timeout and compression are
 * the OTEL_EXPORTER_OTLP_(TRACES_)* variables as the exporter itself reads them.
 */
export function otlpTraceExporter(protocol: OtlpProtocol): SpanExporter {
  if (protocol === 'http/json') return new OTLPTraceExporter();
  return new OTLPExporterBase(
    createOtlpHttpExportDelegate(
      convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }),
      ProtobufTraceSerializer,
      'otlp_http_span_exporter',
      TraceExporterMetricsHelper,
      undefined,
    ),
  );
}

/**
 * An exporter whose failures are said once in the log (and once again when spans get through
 * after): a collector that is down costs the turns nothing, and the log one line, not one per batch.
 */
export class ReportingExporter implements SpanExporter {
  private failing = false;

  constructor(
    private readonly inner: SpanExporter,
    private readonly log: Log,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS && this.failing) {
        this.failing = false;
        this.log.info('traces reach the OpenTelemetry collector again');
      } else if (result.code !== ExportResultCode.SUCCESS && !this.failing) {
        this.failing = true;
        this.log.warn(`exporting traces failed (${result.error?.message ?? 'no reason given'}): the bridge goes on, and says so again when they get through`);
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
