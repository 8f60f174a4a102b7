import { Hono, type Context } from 'hono';
import { deleteCookie } from 'hono/cookie';
import { bearerOf } from '../auth/guard.ts';
import type { InAppLogin } from '../../../kernel/ports/transport.ts';
import type { WebIdentity, WebLogins } from '../auth/web-logins.ts';
import type { Log } from '../../../kernel/log/logger.ts';

export interface AuthParts {
  sessions: WebLogins;
  allowed: (identity: string) => boolean;
  /** The chat app's in-app page (a Mini App) and the transport it vouches for people of; none: there is none. */
  inApp?: { login: InAppLogin; transport: string };
  log: Log;
}

/** The session cookie older bridges set: never taken (its sessions are dropped), and cleared at a login. */
const OLD_SESSION_COOKIE = 'jb_session';

/**
 * Logging in: with a one-time link's secret (POSTed by the page's own script, so a link
 * preview that fetches the page uses nothing up), or with the launch data the chat app signed
 * when it opened its in-app page (a Mini App). Either answers the session's secret, which the
 * page keeps in its tab's session storage and sends as a bearer header; no cookie is set.
 * The web server lets only JSON from the bridge's own pages, a few KiB of it, reach these.
 */
export function authRoutes(parts: AuthParts): Hono {
  const { sessions, log } = parts;
  const app = new Hono();
  const begin = async (c: Context, who: WebIdentity, how: string) => {
    if (!parts.allowed(who.identity)) {
      log.warn({ login: how, user: who.identity }, `web login refused (${how}): not in BRIDGE_ALLOWED_USERS`);
      return c.json({ error: 'You are not allowed to use this bridge.' }, 403);
    }
    const { secret, session } = await sessions.start(who);
    deleteCookie(c, OLD_SESSION_COOKIE, { path: '/' });
    log.info({ user: who.identity }, `web login (${how})`);
    return c.json({ name: session.name ?? session.identity, bearer: secret });
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
      log.warn({ login: 'in-app' }, `in-app login refused: ${checked.reason}`);
      return c.json({ error: `The app's launch data was refused (${checked.reason}). Open the dashboard from the bot again.` }, 401);
    }
    const { id, name } = checked.user;
    return begin(c, { identity: `${inApp.transport}:${id}`, ...(name ? { name } : {}) }, 'in-app');
  });

  // Only with the session's own secret: another page has no way to log anyone out.
  app.post('/logout', async (c) => {
    const secret = bearerOf(c);
    if (secret) await sessions.end(secret);
    return c.json({ ok: true });
  });
  return app;
}
