import type { MiddlewareHandler } from 'hono';
import type { Log } from '../../../kernel/log/logger.ts';

/**
 * Logging in is taken only from the bridge's own pages: a browser names the page a request
 * comes from (`Origin`, or else `Sec-Fetch-Site`), and another site's, or another port's on
 * the same host (same-site, yet not ours), is refused with 403 before anything is read. Ours
 * is BRIDGE_WEB_URL's origin, or the Host the request came to (the server's own scheme). A
 * client that is no browser names none, and still needs the link's secret.
 */
export function ownPagesOnly(url: string, scheme: 'http' | 'https', log: Log): MiddlewareHandler {
  const configured = new URL(url).origin;
  return async (c, next) => {
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site');
    const host = c.req.header('host');
    const ours =
      origin !== undefined
        ? origin === configured || (!!host && origin === `${scheme}://${host}`)
        : site === undefined || site === 'same-origin' || site === 'none';
    if (!ours) {
      log.warn({ login: 'refused', origin: origin ?? null, site: site ?? null }, 'web login refused: not from the bridge pages');
      return c.json({ error: `Logging in is taken only from the bridge's own pages (${configured}).` }, 403);
    }
    await next();
  };
}

/**
 * A body to log in with is JSON, said so: a form (which any site may send across, and whose
 * `text/plain` body can be made to look like JSON) is refused with 415.
 */
export const jsonOnly: MiddlewareHandler = async (c, next) => {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (c.req.method === 'POST' && type !== 'application/json') return c.json({ error: 'Send the body as JSON (Content-Type: application/json).' }, 415);
  await next();
};
