import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { closeServer, listening } from '../../kernel/http/listen.ts';
import type { Log } from '../../kernel/log/logger.ts';
import type { MetricsSdk } from './metrics.ts';
import type { MetricsConfig } from './metrics-settings.ts';
import { mountMetrics, TEXT_ANSWER, type Scrape } from './metrics-route.ts';

/**
 * BRIDGE_METRICS_ADDR: a plain HTTP listener serving `GET /metrics` and nothing else (how a
 * worker, which has no web server, is scraped). This machine may always scrape; others need
 * BRIDGE_METRICS_TOKEN when one is set.
 */
export class MetricsListener {
  private constructor(
    private readonly server: ServerType,
    readonly address: string,
  ) {}

  static async start(listen: { host: string; port: number }, scrape: Scrape, token: string | undefined): Promise<MetricsListener> {
    const app = new Hono();
    mountMetrics(app, scrape, token, true);
    app.all('/metrics', (c) => c.body('GET /metrics.\n', 405, { ...TEXT_ANSWER, allow: 'GET, HEAD' }));
    app.notFound((c) => c.body('Only /metrics is served here.\n', 404, TEXT_ANSWER));
    app.onError((_error, c) => c.body('Collecting the metrics failed.\n', 500, TEXT_ANSWER));
    const server = serve({ fetch: app.fetch, port: listen.port, hostname: listen.host });
    await listening(server, 'BRIDGE_METRICS_ADDR', listen.host, listen.port);
    const { port } = server.address() as AddressInfo;
    const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
    return new MetricsListener(server, `${host}:${port}`);
  }

  /** Where Prometheus scrapes it. */
  get url(): string {
    return `http://${this.address}/metrics`;
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}

/**
 * What the bridge and workers do with their metrics at the start: BRIDGE_METRICS_ADDR's
 * listener when set (a port in use is a ConfigError), and a line saying where metrics go.
 */
export async function startMetrics(config: MetricsConfig, sdk: MetricsSdk, log: Log): Promise<MetricsListener | undefined> {
  if (!sdk.enabled) {
    log.info('metrics are off (OTEL_SDK_DISABLED=true)');
    return undefined;
  }
  const listener = config.listen ? await MetricsListener.start(config.listen, () => sdk.scrape(), config.token) : undefined;
  if (listener)
    log.info(
      `metrics on ${listener.url} (${config.token ? 'to this machine, and to others with BRIDGE_METRICS_TOKEN' : 'to whoever reaches it: BRIDGE_METRICS_TOKEN would require a token of others'})`,
    );
  if (sdk.pushedTo) log.info(`metrics exported to ${sdk.pushedTo}`);
  return listener;
}
