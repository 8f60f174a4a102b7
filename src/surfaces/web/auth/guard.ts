import type { Context, MiddlewareHandler } from 'hono';
import type { WebLogin, WebLogins } from './web-logins.ts';

export type WebEnv = { Variables: { session: WebLogin } };

/**
 * Every API route but logging in: a session, from the `Authorization: Bearer` header the pages
 * send from their tab's session storage; a person no longer allowed is out. No cookie is taken:
 * a browser sends a host's cookies to every port of that host (an agent's own dev server on
 * 127.0.0.1 among them), while session storage belongs to one origin. Nor is a CSRF token
 * needed any more: another site's page can neither read the secret nor add the header (that
 * would take a CORS preflight, which this server never answers).
 */
export function sessionGuard(sessions: WebLogins, allowed: (identity: string) => boolean): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    const session = sessions.get(bearerOf(c));
    if (!session || !allowed(session.identity))
      return c.json({ error: 'Log in first: send /dashboard to the bot (or in the console) for a login link, and open it.' }, 401);
    c.set('session', session);
    await next();
  };
}

/** The session secret a page sends as `Authorization: Bearer <secret>`, if it does. */
export function bearerOf(c: Context): string | undefined {
  return /^Bearer (\S+)$/.exec(c.req.header('authorization') ?? '')?.[1];
}
