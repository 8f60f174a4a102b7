import { describe, expect, it } from 'vitest';
import { environmentSecrets, Secrets } from '../../src/kernel/log/secrets.ts';
import { childEnv } from '../../src/engine/process/child-env.ts';

// The standard OTEL_* variables are the bridge's telemetry settings: their headers often carry
// the collector's token, so no CLI (nor anything else the bridge starts) gets them, and no log
// line shows the token.
describe('the OpenTelemetry variables', () => {
  const env = {
    OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.internal:4318',
    OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20otlp-team-token-0123456789,x-tenant=acme',
    OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'api-key=traces-only-key-987654',
    OTEL_SERVICE_NAME: 'bridge-eu',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod',
    ANTHROPIC_API_KEY: 'sk-ant-for-the-cli',
    PATH: '/usr/bin',
  };

  it('are kept from the environment every CLI runs with', () => {
    expect(Object.keys(childEnv(env)).sort()).toEqual(['ANTHROPIC_API_KEY', 'PATH']);
  });

  it("are the collector's credentials redacted wherever the bridge prints, as written and decoded", () => {
    const secrets = new Secrets();
    for (const value of environmentSecrets(env)) secrets.add(value);
    const line = secrets.redact(
      'sent Authorization: Bearer otlp-team-token-0123456789 (Bearer%20otlp-team-token-0123456789) and api-key traces-only-key-987654 to https://collector.internal:4318',
    );
    expect(line).not.toMatch(/otlp-team-token|traces-only-key/);
    // The endpoint is no secret: the log says where traces go.
    expect(line).toContain('https://collector.internal:4318');
  });
});
