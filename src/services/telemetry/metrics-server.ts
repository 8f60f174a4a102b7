import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { closeServer, listening } from '../../kernel/http/listen.ts';
import { mountMetrics, TEXT_ANSWER, type Scrape } from './metrics-route.ts';

export type { Scrape } from './metrics-route.ts';

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
