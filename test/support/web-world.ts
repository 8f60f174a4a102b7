import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser, SIZES, type Size } from './browser.ts';
import { freePort } from './free-port.ts';
import { OWNER, startTelegramWorld, type TelegramWorld } from './telegram-world.ts';

/** The bridge serving its web pages (BRIDGE_WEB_ADDR) beside the fake Bot API, and a real browser to open them in. */
export interface WebWorld {
  world: TelegramWorld;
  /** Where the pages are: `http://127.0.0.1:<port>`. */
  base: string;
  browser: Browser;
  /** Asks the bot (in the owner's private chat) for a one-time login link. */
  loginLink(): Promise<string>;
  /** A page (phone-sized unless asked), logged in with a fresh link, on the dashboard. */
  loggedIn(size?: Size, options?: BrowserContextOptions): Promise<Page>;
  stop(): Promise<void>;
}

export async function startWebWorld(env: Record<string, string> = {}): Promise<WebWorld> {
  const port = await freePort();
  const world = await startTelegramWorld({ BRIDGE_WEB_ADDR: `127.0.0.1:${port}`, ...env });
  const browser = await launchBrowser();
  const loginLink = async () => {
    const before = world.telegram.botMessages(OWNER).length;
    world.telegram.sendText({ chatId: OWNER, userId: OWNER, text: '/dashboard', firstName: 'Ada' });
    const reply = await world.telegram.waitFor(
      () =>
        world.telegram
          .botMessages(OWNER)
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
    async loggedIn(size: Size = 'phone', options: BrowserContextOptions = {}) {
      const page = await SIZES[size](browser, options);
      await page.goto(await loginLink());
      await page.waitForSelector('header nav');
      return page;
    },
    async stop() {
      await browser.close();
      await world.stop();
    },
  };
}
