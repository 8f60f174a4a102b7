import { isLoopback } from '../../kernel/http/loopback.ts';
import { sameSecret } from '../../kernel/http/same-secret.ts';

/** Who asks for the metrics: the socket's peer and the headers that matter. */
export interface Scraper {
  /** The connection's remote address, as the socket says. */
  remote: string | undefined;
  authorization: string | undefined;
  /** It came through a proxy (Forwarded, X-Forwarded-For, X-Real-IP): its peer is the proxy, not who asks. */
  forwarded: boolean;
}

/** Whether a scraper is let in, and if not, the status and the one line that says why. */
export type Admission = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/**
 * Who may read the metrics: this machine without a token (a proxy on it forwards others, so a
 * forwarded request is not this machine's); anyone else with `Bearer <BRIDGE_METRICS_TOKEN>`.
 * Without a token, others are refused, unless `openWithoutToken` (BRIDGE_METRICS_ADDR: an
 * address the operator opened for metrics alone). Tokens are compared in constant time.
 */
export function admit(scraper: Scraper, token: string | undefined, openWithoutToken = false): Admission {
  if (!scraper.forwarded && isLoopback(scraper.remote)) return { ok: true };
  if (token === undefined) {
    if (openWithoutToken) return { ok: true };
    return { ok: false, status: 403, reason: 'Metrics are served to this machine only: set BRIDGE_METRICS_TOKEN and send it as a bearer token.' };
  }
  const given = /^Bearer\s+(\S+)\s*$/i.exec(scraper.authorization ?? '')?.[1];
  if (given !== undefined && sameSecret(given, token)) return { ok: true };
  return { ok: false, status: 401, reason: 'Send BRIDGE_METRICS_TOKEN as a bearer token (Authorization: Bearer <token>).' };
}

/** Whether headers say a proxy forwarded the request. */
export function forwardedBy(header: (name: string) => string | undefined): boolean {
  return ['forwarded', 'x-forwarded-for', 'x-real-ip'].some((name) => header(name) !== undefined);
}
