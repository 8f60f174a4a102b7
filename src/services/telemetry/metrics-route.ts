import type { Hono } from 'hono';
import { peerOf } from '../../kernel/http/peer.ts';
import { admit, forwardedBy } from './metrics-access.ts';
import { PROMETHEUS_CONTENT_TYPE } from './metrics.ts';

/** What answers a scrape: the metrics as Prometheus text, or undefined when they are off. */
export type Scrape = () => Promise<string | undefined>;

/** The headers of every answer the metrics' routes give: plain text, never cached. */
export const TEXT_ANSWER = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };

/**
 * `GET /metrics`: to this machine without a token, to others only with BRIDGE_METRICS_TOKEN.
 * On the web server, with none set, they are refused, since it faces the chat apps and people,
 * not only Prometheus; on BRIDGE_METRICS_ADDR's listener (`openWithoutToken`), they are let in.
 */
export function mountMetrics(app: Hono, scrape: Scrape, token: string | undefined, openWithoutToken = false): void {
  app.get('/metrics', async (c) => {
    const header = (name: string) => c.req.header(name);
    const admission = admit({ remote: peerOf(c), authorization: header('authorization'), forwarded: forwardedBy(header) }, token, openWithoutToken);
    if (!admission.ok)
      return c.body(`${admission.reason}\n`, admission.status, { ...TEXT_ANSWER, ...(admission.status === 401 ? { 'www-authenticate': 'Bearer' } : {}) });
    const body = await scrape();
    if (body === undefined) return c.body('Metrics are off: OTEL_SDK_DISABLED=true.\n', 404, TEXT_ANSWER);
    return c.body(body, 200, { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' });
  });
}
