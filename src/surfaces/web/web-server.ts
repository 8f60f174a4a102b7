import { createServer as createHttpsServer } from 'node:https';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { WebConfig } from './web-settings.ts';
import { closeServer, listening } from '../../kernel/http/listen.ts';
import type { TransportHost } from '../../kernel/ports/transport.ts';
import { API_BODY_BYTES, AUTH_BODY_BYTES, limitBody } from '../../kernel/http/body-limit.ts';
import { sessionGuard, type WebEnv } from './auth/guard.ts';
import { jsonOnly, ownPagesOnly } from './auth/own-pages-only.ts';
import { actionRoutes, type ActionSources } from './routes/action-routes.ts';
import { authRoutes, type AuthParts } from './routes/auth-routes.ts';
import { chatRoutes } from './routes/chat-routes.ts';
import { dashboardRoutes, type DashboardSources } from './routes/dashboard-routes.ts';
import { reviewRoutes, type ReviewSources } from './routes/review-routes.ts';
import { shareRoutes, type ShareSources } from './routes/share-routes.ts';
import { PAGES_DIR, pagesBuilt } from './pages.ts';

/**
 * The web server's parts: logging in's, what the dashboard shows, a run's review, stopping runs
 * and plans as the chat's commands do, read-only links to a chat's session or run; and the rest.
 */
export type WebParts = AuthParts & DashboardSources & ReviewSources & ActionSources & ShareSources & WebServerParts;

interface WebServerParts {
  config: WebConfig;
  /** What the chat page's messages and presses go to. */
  host: TransportHost;
  /** More routes on the same server (webhooks), outside every session. */
  extra?: (app: Hono) => void;
}

/** The pages a browser may open: each is the one-page app, which reads its own path. */
const PAGES = ['/', '/login', '/app', '/chat', '/share'];

/**
 * The bridge's web server on BRIDGE_WEB_ADDR: the dashboard and chat pages, their API (a
 * session for everything but logging in), and whatever else is mounted beside them. Returns
 * where it listens, and how to close it.
 */
export async function startWebServer(parts: WebParts): Promise<{ address: string; close(): Promise<void> }> {
  const app = new Hono();
  const { config, log } = parts;
  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // The chat app's web client shows its in-app page in a frame.
        frameAncestors: ["'self'", ...(parts.inApp?.login.frameAncestors ?? [])],
      },
      xFrameOptions: false,
      referrerPolicy: 'no-referrer',
    }),
  );
  // Mounted routes bring their own body limit (the webhooks' 1 MB, audited); the rest is limited below.
  parts.extra?.(app);
  // Each check before any body is read: whose page, JSON, and a few KiB.
  app.use('/api/auth/*', ownPagesOnly(config.url, config.tls ? 'https' : 'http', log), jsonOnly, limitBody(AUTH_BODY_BYTES));
  app.route('/api/auth', authRoutes(parts));
  const api = new Hono<WebEnv>();
  // Nobody's body is read before their session is known.
  api.use('*', sessionGuard(parts.sessions, parts.allowed), limitBody(API_BODY_BYTES));
  api.route('/chat', chatRoutes(parts.outbound, parts.host));
  api.route('/runs', reviewRoutes(parts));
  api.route('/shares', shareRoutes(parts));
  api.route('/', actionRoutes(parts));
  api.route('/', dashboardRoutes(parts));
  app.route('/api', api);
  app.all('/api/*', (c) => c.json({ error: 'No such API.' }, 404));
  // The pages take no body; whatever is sent to them is held to the API's limit too.
  app.use('*', limitBody(API_BODY_BYTES));

  const index = join(PAGES_DIR, 'index.html');
  const built = pagesBuilt();
  if (!built) log.warn(`the web pages are not built (${index} is missing): run npm run build`);
  for (const page of PAGES)
    app.get(page, async (c) =>
      built ? c.html(await readFile(index, 'utf8')) : c.text('The web pages are not built: run `npm run build` where the bridge is installed.', 503),
    );
  app.use('/assets/*', serveStatic({ root: PAGES_DIR }));
  app.get('/favicon.svg', serveStatic({ root: PAGES_DIR, onFound: (_path, c) => c.header('cache-control', 'public, max-age=86400') }));
  app.notFound((c) => c.json({ error: 'Not found.' }, 404));
  app.onError((error, c) => {
    log.error({ err: error, path: c.req.path }, 'a web request failed');
    return c.json({ error: 'Something went wrong on the bridge; it is in its log.' }, 500);
  });

  const server = serve({
    fetch: app.fetch,
    port: config.port,
    hostname: config.host,
    // A body past its limit is thrown away by limitBody, which lets its sender read the 413.
    autoCleanupIncoming: false,
    ...(config.tls ? { createServer: createHttpsServer, serverOptions: { cert: config.tls.cert, key: config.tls.key } } : {}),
  });
  await listening(server, 'BRIDGE_WEB_ADDR', config.host, config.port);
  const { port } = server.address() as AddressInfo;
  return { address: `${config.host}:${port}`, close: () => closeServer(server) };
}
