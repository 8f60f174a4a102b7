import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { closeContexts, sharedBrowser, SIZES, type Size } from './browser.ts';
import { freePort } from './free-port.ts';
import { OWNER, startTelegramWorld, type TelegramWorld } from './telegram-world.ts';

/** The bridge serving its web pages (BRIDGE_WEB_ADDR) beside the fake Bot API, and a real browser to open them in. */
export interface WebWorld {
  world: TelegramWorld;
  /** Where the pages are: `http://127.0.0.1:<port>`. */
  base: string;
  /** The test process's one browser (see sharedBrowser): pages go in contexts of their own. */
  browser: Browser;
  /** Asks the bot (in the person's private chat: the owner's unless told) for a one-time login link. */
  loginLink(userId?: number): Promise<string>;
  /** A page (phone-sized unless asked), logged in (as the owner unless told) with a fresh link (or the one given), on the dashboard. */
  loggedIn(size?: Size, options?: { user?: number; link?: string; context?: BrowserContextOptions }): Promise<Page>;
  stop(): Promise<void>;
}

export async function startWebWorld(env: Record<string, string> = {}, options: Parameters<typeof startTelegramWorld>[1] = {}): Promise<WebWorld> {
  const port = await freePort();
  const world = await startTelegramWorld({ BRIDGE_WEB_ADDR: `127.0.0.1:${port}`, ...env }, options);
  const browser = await sharedBrowser();
  const loginLink = (userId = OWNER) => loginLinkFrom(world, userId);
  return {
    world,
    base: `http://127.0.0.1:${port}`,
    browser,
    loginLink,
    async loggedIn(size: Size = 'phone', { user = OWNER, link, context = {} }: { user?: number; link?: string; context?: BrowserContextOptions } = {}) {
      const page = await SIZES[size](browser, context);
      await page.goto(link ?? (await loginLink(user)));
      await page.waitForSelector('header nav');
      return page;
    },
    async stop() {
      await closeContexts(browser);
      await world.stop();
    },
  };
}

/** Asks the bot, in a person's private chat (the owner's by default), for a one-time login link. */
export async function loginLinkFrom(world: TelegramWorld, userId = OWNER): Promise<string> {
  const before = world.telegram.botMessages(userId).length;
  world.telegram.sendText({ chatId: userId, userId, text: '/dashboard', ...(userId === OWNER ? { firstName: 'Ada' } : {}) });
  const reply = await world.telegram.waitFor(
    () =>
      world.telegram
        .botMessages(userId)
        .slice(before)
        .find((m) => /The link works once/.test(m.text ?? '')),
    20_000,
  );
  return /(http:\/\/\S+\/login#\S+)/.exec(reply.text ?? '')![1]!;
}

/** What a page's script sees that Node's types do not name. */
interface PageGlobals {
  sessionStorage: { getItem(key: string): string | null };
}

/** A call of the web API from a logged-in page, with the page's own credentials: its status and body (parsed, when JSON). */
export function apiFrom(page: Page, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ path, method, body }) => {
      const response = await fetch(path, {
        method: method ?? 'GET',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${(globalThis as unknown as PageGlobals).sessionStorage.getItem('jb-bearer')}` },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const json = response.headers.get('content-type')?.includes('application/json');
      return { status: response.status, body: json && text ? (JSON.parse(text) as unknown) : text };
    },
    { path, method: init.method, body: init.body },
  );
}

/** The session secret a logged-in page holds (its tab's session storage), or null. */
export function bearerIn(page: Page): Promise<string | null> {
  return page.evaluate<string | null>("sessionStorage.getItem('jb-bearer')");
}

/** The status of `fetch(path)` from the page, sending its session's bearer as its own calls do. */
export function statusFromPage(page: Page, path: string): Promise<number> {
  return page.evaluate<number>(
    `fetch(${JSON.stringify(path)}, { headers: { authorization: 'Bearer ' + sessionStorage.getItem('jb-bearer') } }).then((response) => response.status)`,
  );
}
