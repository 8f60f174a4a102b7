import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { BasicTracerProvider, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Log } from '../../src/kernel/log/logger.ts';
import { otlpTraceExporter, ReportingExporter } from '../../src/services/telemetry/trace-exporter.ts';
import { traceProtocol } from '../../src/services/telemetry/tracing.ts';
import { OtlpCollector } from '../support/otlp-collector.ts';

// How spans leave the process: the protocol the OTEL_* variables name, and a collector that
// fails said once, not once a batch.
let collector: OtlpCollector | undefined;
const saved = { ...process.env };
afterEach(async () => {
  process.env = { ...saved };
  await collector?.close();
  collector = undefined;
});

describe('the OTLP protocol', () => {
  it('is http/protobuf unless OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL says http/json; grpc is refused with the variable named', () => {
    expect(traceProtocol({})).toEqual({ protocol: 'http/protobuf' });
    expect(traceProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toEqual({ protocol: 'http/json' });
    expect(traceProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toEqual({
      protocol: 'http/protobuf',
    });
    const grpc = traceProtocol({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' });
    expect(grpc).toEqual({ problem: expect.stringContaining('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=grpc is not a protocol') });
  });

  it.each([
    ['http/protobuf', 'application/x-protobuf'],
    ['http/json', 'application/json'],
  ] as const)('%s goes to the endpoint the SDK reads, as %s, with the headers it reads', async (protocol, contentType) => {
    collector = await OtlpCollector.start();
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.endpoint;
    process.env.OTEL_EXPORTER_OTLP_HEADERS = 'x-collector-key=key-0123456789';
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(otlpTraceExporter(protocol))] });
    provider.getTracer('test').startSpan('invoke_agent claude').end();
    await provider.forceFlush();
    await provider.shutdown();
    const [request] = collector.requests;
    expect(request).toMatchObject({ path: '/v1/traces', headers: { 'content-type': contentType, 'x-collector-key': 'key-0123456789' } });
    // Protobuf writes a string as its bytes: the span's name is in the body either way.
    expect(request!.body.includes(Buffer.from('invoke_agent claude'))).toBe(true);
  });
});

describe('a collector that fails', () => {
  it('is said once while it fails, and once when spans get through again', async () => {
    const results: ExportResult[] = [
      { code: ExportResultCode.FAILED, error: new Error('connect ECONNREFUSED') },
      { code: ExportResultCode.FAILED, error: new Error('connect ECONNREFUSED') },
      { code: ExportResultCode.SUCCESS },
      { code: ExportResultCode.FAILED, error: new Error('503') },
    ];
    const inner: SpanExporter = { export: (_spans, done) => done(results.shift()!), shutdown: async () => {} };
    const log = { warn: vi.fn(), info: vi.fn() };
    const exporter = new ReportingExporter(inner, log as unknown as Log);
    const done = vi.fn();
    for (let i = 0; i < 4; i++) exporter.export([] as ReadableSpan[], done);
    expect(done).toHaveBeenCalledTimes(4);
    expect(log.warn.mock.calls.map(([line]) => line)).toEqual([
      expect.stringContaining('exporting traces failed (connect ECONNREFUSED)'),
      expect.stringContaining('exporting traces failed (503)'),
    ]);
    expect(log.info.mock.calls).toEqual([['traces reach the OpenTelemetry collector again']]);
  });
});
