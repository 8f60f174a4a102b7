import { trace } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Log } from '../../src/kernel/log/logger.ts';
import { AgentSpans } from '../../src/services/telemetry/traced-agent.ts';
import { startTracing } from '../../src/services/telemetry/tracing.ts';
import { OtlpCollector } from '../support/otlp-collector.ts';

// The standard OTEL_* variables as the SDK reads them, through the bridge's tracing: who the
// spans say sent them, which are sampled, and a protocol the bridge does not speak.
let collector: OtlpCollector | undefined;
const saved = { ...process.env };
afterEach(async () => {
  process.env = { ...saved };
  await collector?.close();
  collector = undefined;
});

const log = () => ({ warn: vi.fn(), info: vi.fn(), child: () => ({ warn: vi.fn(), info: vi.fn() }) });

async function oneTurn(env: Record<string, string>) {
  collector ??= await OtlpCollector.start();
  process.env = { ...saved, OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', ...env };
  const tracing = await startTracing('jsonl-bridge-worker', log() as unknown as Log);
  AgentSpans.invoke({ work: 'turn', cli: 'claude', provider: 'anthropic', ids: { turn: 'turn-01' } }).end();
  await tracing.shutdown();
  return tracing;
}

describe('tracing under the OTEL_* variables', () => {
  it('names the service and its resource as OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES say, over its own name', async () => {
    await oneTurn({ OTEL_SERVICE_NAME: 'bridge-eu-1', OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod,service.version=7' });
    const [span] = collector!.spans;
    expect(span!.resource).toMatchObject({ 'service.name': 'bridge-eu-1', 'deployment.environment.name': 'prod', 'service.version': '7' });
    expect(span!.resource['service.instance.id']).toMatch(/^[\da-f-]{36}$/);
  });

  it('is the worker by default', async () => {
    await oneTurn({});
    expect(collector!.spans[0]!.resource['service.name']).toBe('jsonl-bridge-worker');
  });

  it('samples as OTEL_TRACES_SAMPLER says: always_off sends nothing', async () => {
    const tracing = await oneTurn({ OTEL_TRACES_SAMPLER: 'always_off' });
    expect(tracing.exporting).toBeDefined();
    expect(collector!.requests).toEqual([]);
  });

  it('exports nothing, and says why, for a protocol it does not speak (grpc)', async () => {
    collector = await OtlpCollector.start();
    process.env = { ...saved, OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' };
    const said = log();
    const tracing = await startTracing('jsonl-bridge', said as unknown as Log);
    expect(tracing.exporting).toBeUndefined();
    expect(said.warn).toHaveBeenCalledWith(expect.stringContaining('OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not a protocol the bridge exports traces in'));
  });

  it('says where it exports without the credentials of the endpoint’s URL', async () => {
    process.env = { ...saved, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://user:pa55word-secret@collector.internal:4318/v1/traces' };
    const tracing = await startTracing('jsonl-bridge', log() as unknown as Log);
    expect(tracing.exporting).toBe('http/protobuf to https://collector.internal:4318/v1/traces');
    await tracing.shutdown();
  });

  it('says so, and exports nothing, where another tracer provider is registered already', async () => {
    const theirs = new BasicTracerProvider();
    trace.setGlobalTracerProvider(theirs);
    try {
      process.env = { ...saved, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
      const said = log();
      const tracing = await startTracing('jsonl-bridge', said as unknown as Log);
      expect(tracing.exporting).toBeUndefined();
      expect(said.warn).toHaveBeenCalledWith(expect.stringContaining('another tracer provider is registered in this process'));
    } finally {
      trace.disable();
      await theirs.shutdown();
    }
  });
});
