import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerIn, startWebWorld, statusFromPage, type WebWorld } from '../support/web-world.ts';

// The session belongs to the pages' origin alone. A browser sends a host's cookies to every
// port of it, so another server on 127.0.0.1 (an agent's own dev server, opened in the same
// browser) must receive nothing that works against the bridge's API, and read nothing either.
let web: WebWorld;
let other: { server: Server; base: string; received: IncomingHttpHeaders[] };

beforeAll(async () => {
  web = await startWebWorld();
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    received.push(req.headers);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>dev server</title><p>npm run dev</p>');
  });
  // Any free port: the same host as the bridge, another port.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  other = { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}, 60_000);
afterAll(async () => {
  await web?.stop();
  await new Promise((resolve) => other?.server.close(resolve));
});

/** What a page of the other server can read in the browser: its cookies, its storage, and whatever the bridge's tabs say to anyone who asks. */
async function readableBy(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(async () => {
    const found = [document.cookie, JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage })];
    const channel = new BroadcastChannel('jb-session');
    channel.onmessage = (event) => found.push(JSON.stringify(event.data));
    channel.postMessage({ ask: true });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    channel.close();
    return found;
  })()`);
}

/** Every value that may be a secret: each cookie's value, each header's value, and each word of what the page read. */
function candidates(headers: IncomingHttpHeaders[], read: string[]): string[] {
  const values = new Set<string>();
  for (const h of headers) {
    for (const pair of (h.cookie ?? '').split(';')) {
      const value = pair.split('=').slice(1).join('=').trim();
      if (value) values.add(value);
    }
    for (const value of Object.values(h)) for (const v of [value].flat()) if (v) values.add(v.replace(/^Bearer /, ''));
  }
  for (const text of read) for (const word of text.split(/[^A-Za-z0-9_-]+/)) if (word.length >= 20) values.add(word);
  return [...values];
}

describe('a second server on the same host, opened in the same browser', () => {
  it('receives and reads nothing that works against the API', async () => {
    const page = await web.loggedIn();
    const context = page.context();
    const devPage = await context.newPage();
    await devPage.goto(`${other.base}/`);
    // Its own page asks for more: a fetch to itself, with whatever the browser adds.
    await devPage.evaluate("fetch('/again', { credentials: 'include' }).then(() => undefined)");
    const read = await readableBy(devPage);
    const tried = candidates(other.received, read);
    expect(tried.length).toBeGreaterThan(0);

    // Each, as a cookie and as a bearer, is nothing to the bridge...
    for (const value of tried)
      for (const headers of [{ cookie: `jb_session=${value}` }, { authorization: `Bearer ${value}` }] as Record<string, string>[]) {
        expect((await fetch(`${web.base}/api/me`, { headers })).status, JSON.stringify(headers)).toBe(401);
        expect((await fetch(`${web.base}/api/runs`, { headers })).status).toBe(401);
      }
    // ...while the bridge's own page, in the same browser, is logged in and working.
    const mine = await statusFromPage(page, '/api/me');
    expect(mine).toBe(200);
    await context.close();
  });

  it('cannot spend a login link from its page, nor log the browser in', async () => {
    const link = await web.loginLink();
    const token = link.split('#')[1]!;
    const page = await web.browser.newPage();
    await page.goto(`${other.base}/`);
    // A form's text/plain body shaped as JSON (what any site can send), then a JSON fetch: neither reaches the link.
    await page.evaluate(`(async () => {
      const bridge = ${JSON.stringify(web.base)};
      const token = ${JSON.stringify(token)};
      const frame = Object.assign(document.createElement('iframe'), { name: 'sink' });
      document.body.append(frame);
      const form = Object.assign(document.createElement('form'), { method: 'POST', action: bridge + '/api/auth/link', enctype: 'text/plain', target: 'sink' });
      form.append(Object.assign(document.createElement('input'), { name: '{"token":"' + token + '","x":"', value: '"}' }));
      document.body.append(form);
      const answered = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
      form.submit();
      await answered;
      await fetch(bridge + '/api/auth/link', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) }).catch(() => {});
    })()`);
    expect(await page.context().cookies(web.base)).toEqual([]);
    await page.context().close();
    // The link is still good for the person it was sent to.
    const own = await fetch(`${web.base}/api/auth/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    expect(own.status).toBe(200);
  });
});

describe('logging in', () => {
  const post = (headers: Record<string, string>, body = '{"token":"made-up"}') => fetch(`${web.base}/api/auth/link`, { method: 'POST', headers, body });

  it('takes JSON only, from the bridge’s own pages', async () => {
    const refused = await post({ 'content-type': 'text/plain' });
    expect(refused.status).toBe(415);
    expect(await refused.json()).toEqual({ error: 'Send the body as JSON (Content-Type: application/json).' });
    expect((await post({ 'content-type': 'application/x-www-form-urlencoded' }, 'token=x')).status).toBe(415);
    const json = { 'content-type': 'application/json' };
    const foreign = await post({ ...json, origin: other.base });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: string }).error).toMatch(/only from the bridge's own pages/);
    expect((await post({ ...json, origin: 'null' })).status).toBe(403);
    expect((await post({ ...json, 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await post({ ...json, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    // Its own pages (the configured address or the Host it is served on), and clients that are no browser, get as far as the secret.
    expect((await post({ ...json, origin: web.base })).status).toBe(401);
    expect((await post({ ...json, 'sec-fetch-site': 'same-origin' })).status).toBe(401);
    expect((await post(json)).status).toBe(401);
  });

  it('sets no cookie: the session is the tab’s, handed to a tab opened from it, and logging out ends it in both', async () => {
    const page = await web.loggedIn();
    const context = page.context();
    expect(await context.cookies()).toEqual([]);
    // A link opened in a new tab starts with empty storage: it takes the session from the open tab.
    const second = await context.newPage();
    await second.goto(`${web.base}/#audit`);
    await second.waitForSelector('header nav');
    const bearer = await bearerIn(second);
    expect(bearer).toBe(await bearerIn(page));
    // Logging out in one tab ends the session, and the other tab asks for a link again.
    await second.click('text=Log out');
    await second.waitForSelector('[data-testid="login-error"]');
    await page.waitForSelector('[data-testid="login-error"]');
    expect((await fetch(`${web.base}/api/me`, { headers: { authorization: `Bearer ${bearer}` } })).status).toBe(401);
    // With no tab of the bridge open, a new one asks for a link.
    const third = await context.newPage();
    await second.close();
    await page.close();
    await third.goto(`${web.base}/`);
    expect(await third.textContent('[data-testid="login-error"]')).toMatch(/Log in first/);
    await context.close();
  });
});
