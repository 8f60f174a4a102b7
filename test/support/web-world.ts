import type { Browser, Page } from 'playwright-core';
import { launchBrowser, phonePage } from './browser.ts';
import { freePort } from './free-port.ts';
import { OWNER, startTelegramWorld, type TelegramWorld } from './telegram-world.ts';

/** The bridge serving its web pages (BRIDGE_WEB_ADDR) beside the fake Bot API, and a real browser to open them in. */
export interface WebWorld {
  world: TelegramWorld;
  /** Where the pages are: `http://127.0.0.1:<port>`. */
  base: string;
  browser: Browser;
  /** Asks the bot (in the person's private chat: the owner's unless told) for a one-time login link. */
  loginLink(userId?: number): Promise<string>;
  /** A phone-sized page, logged in (as the owner unless told) with a fresh link, on the dashboard. */
  loggedIn(userId?: number): Promise<Page>;
  stop(): Promise<void>;
}

export async function startWebWorld(env: Record<string, string> = {}, options: Parameters<typeof startTelegramWorld>[1] = {}): Promise<WebWorld> {
  const port = await freePort();
  const world = await startTelegramWorld({ BRIDGE_WEB_ADDR: `127.0.0.1:${port}`, ...env }, options);
  const browser = await launchBrowser();
  const loginLink = async (userId = OWNER) => {
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
  };
  return {
    world,
    base: `http://127.0.0.1:${port}`,
    browser,
    loginLink,
    async loggedIn(userId = OWNER) {
      const page = await phonePage(browser);
      await page.goto(await loginLink(userId));
      await page.waitForSelector('header nav');
      return page;
    },
    async stop() {
      await browser.close();
      await world.stop();
    },
  };
}

/** A call of the web API from a logged-in page, with the page's own credentials: its status and body (parsed, when JSON). */
export function apiFrom(page: Page, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ path, method, body }) => {
      const csrf = ((await (await fetch('/api/me')).json()) as { csrf: string }).csrf;
      const response = await fetch(path, {
        method: method ?? 'GET',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const json = response.headers.get('content-type')?.includes('application/json');
      return { status: response.status, body: json && text ? (JSON.parse(text) as unknown) : text };
    },
    { path, method: init.method, body: init.body },
  );
}
