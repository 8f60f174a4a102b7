import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { csrfMatches, type WebSession, type WebSessions } from './web-sessions.ts';

export const SESSION_COOKIE = 'jb_session';

export type WebEnv = { Variables: { session: WebSession } };

/**
 * Every API route but logging in: a session, from the cookie (a browser) or a bearer header
 * (the in-app page, which the chat app's web client frames, where a Lax cookie is not sent); a
 * person no longer allowed is out. A change made with the cookie needs the session's CSRF
 * token too: a cookie comes with any site's form, a header only with our page's own calls.
 */
export function sessionGuard(sessions: WebSessions, allowed: (identity: string) => boolean): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    const bearer = bearerOf(c);
    const session = sessions.get(bearer ?? getCookie(c, SESSION_COOKIE));
    if (!session || !allowed(session.identity)) return c.json({ error: 'Log in first: send /dashboard to the bot.' }, 401);
    if (!bearer && !safeMethod(c) && !csrfMatches(session, c.req.header('x-csrf-token')))
      return c.json({ error: 'Missing or wrong CSRF token: reload the page.' }, 403);
    c.set('session', session);
    await next();
  };
}

/** The session secret a page sends as `Authorization: Bearer <secret>` (the in-app page), if it does. */
export function bearerOf(c: Context): string | undefined {
  return /^Bearer (\S+)$/.exec(c.req.header('authorization') ?? '')?.[1];
}

function safeMethod(c: Context): boolean {
  return c.req.method === 'GET' || c.req.method === 'HEAD';
}
