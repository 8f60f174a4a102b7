import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { InAppLogin } from '../../ports/chat-transport.ts';
import { bearerOf, SESSION_COOKIE } from '../auth/guard.ts';
import { csrfMatches, SESSION_MS, type WebIdentity, type WebSessions } from '../auth/web-sessions.ts';
import type { Log } from '../../log/logger.ts';

export interface AuthParts {
  sessions: WebSessions;
  allowed: (identity: string) => boolean;
  /** The chat app's in-app page, and the transport it vouches for people of; none: there is none. */
  inApp?: { login: InAppLogin; transport: string };
  /** Cookies only over HTTPS (where the page is served over it, or behind a proxy that is). */
  secureCookies: boolean;
  log: Log;
}

/**
 * Logging in: with a one-time link's secret (POSTed by the page's own script, so a link
 * preview that fetches the page uses nothing up), or with the launch data the chat app signed
 * when it opened its in-app page (a Mini App).
 */
export function authRoutes(parts: AuthParts): Hono {
  const { sessions, log } = parts;
  const app = new Hono();
  const begin = async (c: Context, who: WebIdentity, how: string) => {
    if (!parts.allowed(who.identity)) {
      log.warn({ user: who.identity }, `web login refused (${how}): not in BRIDGE_ALLOWED_USERS`);
      return c.json({ error: 'You are not allowed to use this bridge.' }, 403);
    }
    const { secret, session } = await sessions.start(who);
    setCookie(c, SESSION_COOKIE, secret, {
      httpOnly: true,
      sameSite: 'Lax',
      secure: parts.secureCookies,
      path: '/',
      maxAge: Math.floor(SESSION_MS / 1000),
    });
    log.info({ user: who.identity }, `web login (${how})`);
    return c.json({ name: session.name ?? session.identity, csrf: session.csrf, ...(how === 'in-app' ? { bearer: secret } : {}) });
  };

  app.post('/link', async (c) => {
    const body = await c.req.json().catch(() => ({}));
    const token = typeof body?.token === 'string' ? body.token : '';
    const who = sessions.useLink(token);
    if (!who) return c.json({ error: 'This login link is used up or expired: send /dashboard to the bot for a new one.' }, 401);
    return begin(c, who, 'link');
  });

  app.post('/in-app', async (c) => {
    const { inApp } = parts;
    if (!inApp) return c.json({ error: 'This bridge has no in-app page.' }, 404);
    const body = await c.req.json().catch(() => ({}));
    const checked = inApp.login.check(typeof body?.launchData === 'string' ? body.launchData : '');
    if (!checked.ok) {
      log.warn(`in-app login refused: ${checked.reason}`);
      return c.json({ error: `The app's launch data was refused (${checked.reason}). Open the dashboard from the bot again.` }, 401);
    }
    const { id, name } = checked.user;
    return begin(c, { identity: `${inApp.transport}:${id}`, ...(name ? { name } : {}) }, 'in-app');
  });

  // Like every change, with the cookie it needs the CSRF token: another site cannot log anyone out.
  app.post('/logout', async (c) => {
    const bearer = bearerOf(c);
    const secret = bearer ?? getCookie(c, SESSION_COOKIE);
    const session = sessions.get(secret);
    if (!bearer && session && !csrfMatches(session, c.req.header('x-csrf-token')))
      return c.json({ error: 'Missing or wrong CSRF token: reload the page.' }, 403);
    if (secret) await sessions.end(secret);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.json({ ok: true });
  });
  return app;
}
