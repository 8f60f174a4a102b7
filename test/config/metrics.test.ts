import { describe, expect, it } from 'vitest';
import { metricsConfig } from '../../src/services/telemetry/metrics-settings.ts';

// BRIDGE_METRICS_* and the standard OTEL_* variables the metrics honour.
describe('the metrics settings', () => {
  it('serve to this machine alone, and push nowhere, when nothing is set', () => {
    expect(metricsConfig({})).toEqual({ disabled: false, token: undefined, listen: undefined, otlp: undefined, secrets: [] });
  });

  it('read the token, the listener, and the OTLP endpoint with its standard defaults (http/protobuf, a minute)', () => {
    const config = metricsConfig({
      BRIDGE_METRICS_TOKEN: 'a-metrics-token-0123456789',
      BRIDGE_METRICS_ADDR: '[::]:9464',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=se%20cret,x-team=a',
    });
    expect(config).toEqual({
      disabled: false,
      token: 'a-metrics-token-0123456789',
      listen: { host: '::', port: 9464 },
      otlp: { url: 'http://collector:4318/v1/metrics', protocol: 'http/protobuf', intervalMs: 60_000, timeoutMs: 30_000 },
      secrets: ['a-metrics-token-0123456789', 'se%20cret', 'se cret', 'a'],
    });
  });

  it("take the signal's own endpoint and protocol as written over the shared ones, and OTEL_METRICS_EXPORTER=none or prometheus turns the push off", () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://shared:4318',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://own:4318/custom',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'HTTP/JSON',
      OTEL_METRIC_EXPORT_INTERVAL: '5000',
    };
    expect(metricsConfig(env).otlp).toEqual({ url: 'https://own:4318/custom', protocol: 'http/json', intervalMs: 5000, timeoutMs: 30_000 });
    expect(metricsConfig({ ...env, OTEL_METRICS_EXPORTER: 'none' }).otlp).toBeUndefined();
    expect(metricsConfig({ ...env, OTEL_METRICS_EXPORTER: 'prometheus' }).otlp).toBeUndefined();
    expect(metricsConfig({ ...env, OTEL_METRICS_EXPORTER: 'prometheus,otlp' }).otlp).toBeDefined();
    expect(metricsConfig({ OTEL_SDK_DISABLED: 'TRUE' }).disabled).toBe(true);
  });

  it('name the variable at fault, in one line', () => {
    const wrong = (env: Record<string, string>) => () => metricsConfig(env);
    expect(wrong({ BRIDGE_METRICS_ADDR: '9464' })).toThrow(/^BRIDGE_METRICS_ADDR: expected host:port, like 0\.0\.0\.0:9464, got "9464"$/);
    expect(wrong({ BRIDGE_METRICS_TOKEN: 'short' })).toThrow(/^BRIDGE_METRICS_TOKEN: expected at least 16 printable characters and no spaces/);
    expect(wrong({ BRIDGE_METRICS_TOKEN: 'has a space in the middle of it' })).toThrow(/^BRIDGE_METRICS_TOKEN: /);
    expect(wrong({ OTEL_SDK_DISABLED: 'yes' })).toThrow(/^OTEL_SDK_DISABLED: expected true or false, got "yes"$/);
    expect(wrong({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /^OTEL_EXPORTER_OTLP_ENDPOINT: expected the http\(s\) address of an OTLP collector, like http:\/\/127\.0\.0\.1:4318, got "collector:4318"$/,
    );
    expect(wrong({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /^OTEL_EXPORTER_OTLP_PROTOCOL: expected http\/protobuf or http\/json, got "grpc" \(gRPC is not supported/,
    );
    expect(wrong({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_METRIC_EXPORT_INTERVAL: '1m' })).toThrow(
      /^OTEL_METRIC_EXPORT_INTERVAL: expected a whole number of milliseconds of at least 1, got "1m"$/,
    );
    expect(wrong({ OTEL_METRICS_EXPORTER: 'console' })).toThrow(/^OTEL_METRICS_EXPORTER: expected otlp, prometheus or none, got "console"$/);
  });
});
