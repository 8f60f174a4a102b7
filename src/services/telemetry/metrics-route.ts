import type { Hono } from 'hono';
import { peerOf } from '../../kernel/http/peer.ts';
import { admit, forwardedBy } from './metrics-access.ts';
import { answerScrape, type Scrape } from './metrics-server.ts';

/**
 * `GET /metrics` on the web server: to this machine without a token, to others only with
 * BRIDGE_METRICS_TOKEN (none set: they are refused, since the web server faces the chat
 * apps and people, not only Prometheus).
 */
export function mountMetrics(app: Hono, scrape: Scrape, token: string | undefined): void {
  app.get('/metrics', async (c) => {
    const admission = admit({ remote: peerOf(c), authorization: c.req.header('authorization'), forwarded: forwardedBy((name) => c.req.header(name)) }, token);
    const answer = await answerScrape(admission, scrape);
    return c.body(answer.body, answer.status as 200, { 'content-type': answer.contentType, 'cache-control': 'no-store', ...answer.headers });
  });
}
