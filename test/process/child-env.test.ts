import { describe, expect, it } from 'vitest';
import { childEnv } from '../../src/process/child-env.ts';

// The bridge's telemetry settings are its own: a CLI it runs never gets its collector's address or headers.
describe('the environment CLIs run with', () => {
  it('has none of the OTEL_* variables (their headers often carry a token)', () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20collector-token',
      OTEL_SERVICE_NAME: 'jsonl-bridge',
      BRIDGE_METRICS_TOKEN: 'a-metrics-token-0123456789',
      ANTHROPIC_API_KEY: 'sk-ant-for-the-cli',
      PATH: '/usr/bin',
    };
    expect(Object.keys(childEnv(env)).sort()).toEqual(['ANTHROPIC_API_KEY', 'PATH']);
  });
});
