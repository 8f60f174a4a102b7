import type { Context, Hono } from 'hono';
import { isLoopback } from '../../kernel/http/loopback.ts';
import { peerOf } from '../../kernel/http/peer.ts';
import { sameSecret } from '../../kernel/http/same-secret.ts';
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
    const admission = admit(c, token, openWithoutToken);
    if (!admission.ok)
      return c.body(`${admission.reason}\n`, admission.status, { ...TEXT_ANSWER, ...(admission.status === 401 ? { 'www-authenticate': 'Bearer' } : {}) });
    const body = await scrape();
    if (body === undefined) return c.body('Metrics are off: OTEL_SDK_DISABLED=true.\n', 404, TEXT_ANSWER);
    return c.body(body, 200, { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' });
  });
}

/**
 * Who may read the metrics: this machine without a token (a proxy on it forwards others, so a
 * request through a proxy, saying so in Forwarded, X-Forwarded-For or X-Real-IP, is not this
 * machine's); anyone else with `Bearer <BRIDGE_METRICS_TOKEN>`. Without a token, others are
 * refused, unless `openWithoutToken` (BRIDGE_METRICS_ADDR: an address the operator opened for
 * metrics alone). Tokens are compared in constant time.
 */
function admit(c: Context, token: string | undefined, openWithoutToken: boolean): { ok: true } | { ok: false; status: 401 | 403; reason: string } {
  const forwarded = ['forwarded', 'x-forwarded-for', 'x-real-ip'].some((name) => c.req.header(name) !== undefined);
  if (!forwarded && isLoopback(peerOf(c))) return { ok: true };
  if (token === undefined) {
    if (openWithoutToken) return { ok: true };
    return { ok: false, status: 403, reason: 'Metrics are served to this machine only: set BRIDGE_METRICS_TOKEN and send it as a bearer token.' };
  }
  const given = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
  if (given !== undefined && sameSecret(given, token)) return { ok: true };
  return { ok: false, status: 401, reason: 'Send BRIDGE_METRICS_TOKEN as a bearer token (Authorization: Bearer <token>).' };
}
