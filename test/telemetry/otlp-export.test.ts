import { afterEach, describe, expect, it } from 'vitest';
import { OtlpCollector } from '../support/otlp-collector.ts';
import { OWNER, ownerIn, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// The bridge pushing its metrics to a collector's stand-in over OTLP/HTTP, as the standard
// OTEL_* variables say.
let world: TelegramWorld | undefined;
let collector: OtlpCollector | undefined;
afterEach(async () => {
  await world?.stop();
  await collector?.close();
  world = undefined;
  collector = undefined;
});

const { say, waitText } = ownerIn(() => world!, OWNER);
const COLLECTOR_TOKEN = 'collector-token-0123456789';

describe('metrics exported over OTLP', () => {
  it('http/json: the last interval reaches the collector as the bridge shuts down, with its resource and the headers OTEL_EXPORTER_OTLP_HEADERS names, which no log line shows', async () => {
    collector = await OtlpCollector.start();
    world = await startTelegramWorld({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${COLLECTOR_TOKEN}`,
      // No export before the shutdown's: what arrives is the drain's flush.
      OTEL_METRIC_EXPORT_INTERVAL: '600000',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
    });
    await world.bridge.waitForLog(new RegExp(`metrics exported to ${collector.endpoint}/v1/metrics \\(http/json\\)`));
    say('hello');
    await waitText(/^echo: hello/);
    // The same endpoint takes the spans (/v1/traces); the metrics are what this is about.
    const metrics = () => collector!.requests.filter((e) => e.path !== '/v1/traces');
    expect(metrics()).toEqual([]);
    world.bridge.kill('SIGTERM');
    expect(await world.bridge.exited).toMatchObject({ code: 0 });
    expect(metrics().map((e) => [e.path, e.headers['content-type'], e.headers.authorization])).toEqual([
      ['/v1/metrics', 'application/json', `Bearer ${COLLECTOR_TOKEN}`],
    ]);
    const body = JSON.parse(metrics()[0]!.body.toString('utf8')) as { resourceMetrics: { resource: { attributes: { key: string }[] } }[] };
    expect(body.resourceMetrics[0]!.resource.attributes.map((a) => a.key)).toEqual(
      expect.arrayContaining(['service.name', 'service.instance.id', 'deployment.environment.name']),
    );
    expect(collector.metricPoints('jsonl_bridge.turns.ended')).toEqual([
      expect.objectContaining({ service: 'jsonl-bridge', value: 1, attributes: expect.objectContaining({ cli: 'claude', outcome: 'completed' }) }),
    ]);
    expect(collector.metricPoints('gen_ai.client.token.usage').map((p) => p.attributes['gen_ai.token.type'])).toEqual(
      expect.arrayContaining(['input', 'output']),
    );
    expect(world.bridge.stderr()).not.toContain(COLLECTOR_TOKEN);
  });

  it('http/protobuf (the standard default) to OTEL_EXPORTER_OTLP_METRICS_ENDPOINT as written, every OTEL_METRIC_EXPORT_INTERVAL', async () => {
    collector = await OtlpCollector.start();
    world = await startTelegramWorld({
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${collector.endpoint}/custom/metrics`,
      OTEL_METRIC_EXPORT_INTERVAL: '300',
      OTEL_SERVICE_NAME: 'bridge-of-team-a',
    });
    say('hello');
    await waitText(/^echo: hello/);
    await expect
      .poll(() => collector!.requests.some((e) => e.body.includes('jsonl_bridge.turns.ended') && e.body.includes('bridge-of-team-a')), { timeout: 10_000 })
      .toBe(true);
    expect(new Set(collector.requests.map((e) => `${e.path} ${e.headers['content-type']}`))).toEqual(new Set(['/custom/metrics application/x-protobuf']));
  });
});
