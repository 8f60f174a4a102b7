import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

/** Debian's chromium, never a downloaded browser: `.ci/run` installs it where it is missing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where screenshots of each page are kept, as the suite's artifacts (`npm run screenshots` copies them into docs/). */
export const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');

let shared: Promise<Browser> | undefined;

/**
 * The test process's one browser, launched at its first use: a launch costs about a second of
 * CPU, and files of one worker run one after another. Each world opens contexts of its own in
 * it, and closes them (`closeContexts`), never the browser.
 */
export function sharedBrowser(): Promise<Browser> {
  // As root, chromium runs only without its sandbox.
  shared ??= chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }).then((browser) => {
    browser.on('disconnected', () => (shared = undefined));
    return browser;
  });
  return shared;
}

/** Closes every context (and so every page) open in the browser: what a world opened in it. */
export async function closeContexts(browser: Browser): Promise<void> {
  await Promise.all(browser.contexts().map((context) => context.close()));
}

/** A phone-sized page: the dashboard must work at phone width. */
export async function phonePage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, ...options });
  return context.newPage();
}

/** A desk-sized page: the dashboard kept open beside work. */
export async function deskPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  return context.newPage();
}

/** The two sizes every page must work at. */
export const SIZES = { phone: phonePage, desk: deskPage } as const;
export type Size = keyof typeof SIZES;

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
