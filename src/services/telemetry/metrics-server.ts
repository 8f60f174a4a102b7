import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { closeServer, listening } from '../../kernel/http/listen.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { MetricsSdk } from './metrics.ts';
import type { MetricsConfig } from './metrics-settings.ts';
import { mountMetrics, TEXT_ANSWER } from './metrics-route.ts';

/**
 * What the bridge and workers do with their metrics at the start: BRIDGE_METRICS_ADDR's
 * listener when set (a port in use is a ConfigError), and a line saying where metrics go. The
 * listener is plain HTTP serving `GET /metrics` and nothing else (how a worker, which has no
 * web server, is scraped): this machine may always scrape; others need BRIDGE_METRICS_TOKEN
 * when one is set. Returns how to close it.
 */
export async function startMetrics(config: MetricsConfig, sdk: MetricsSdk, log: Log): Promise<{ close(): Promise<void> } | undefined> {
  if (!sdk.enabled) {
    log.info('metrics are off (OTEL_SDK_DISABLED=true)');
    return undefined;
  }
  let listener: { close(): Promise<void> } | undefined;
  if (config.listen) {
    const app = new Hono();
    mountMetrics(app, () => sdk.scrape(), config.token, true);
    app.all('/metrics', (c) => c.body('GET /metrics.\n', 405, { ...TEXT_ANSWER, allow: 'GET, HEAD' }));
    app.notFound((c) => c.body('Only /metrics is served here.\n', 404, TEXT_ANSWER));
    app.onError((_error, c) => c.body('Collecting the metrics failed.\n', 500, TEXT_ANSWER));
    const { host, port } = config.listen;
    const server = serve({ fetch: app.fetch, port, hostname: host });
    await listening(server, 'BRIDGE_METRICS_ADDR', host, port);
    listener = { close: () => closeServer(server) };
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}/metrics`;
    log.info(
      `metrics on ${url} (${config.token ? 'to this machine, and to others with BRIDGE_METRICS_TOKEN' : 'to whoever reaches it: BRIDGE_METRICS_TOKEN would require a token of others'})`,
    );
  }
  if (sdk.pushedTo) log.info(`metrics exported to ${sdk.pushedTo}`);
  return listener;
}
