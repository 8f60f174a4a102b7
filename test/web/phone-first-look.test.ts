import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { phonePage, screenshot } from '../support/browser.ts';
import { startWebWorld, type WebWorld } from '../support/web-world.ts';

// What a newcomer sees first on a phone (390×844): a tab not logged in, the tab bar, the empty chat.
let web: WebWorld;
beforeAll(async () => (web = await startWebWorld()), 120_000);
afterAll(() => web?.stop());

/** The page's window, which Node's types do not name: the callbacks below run in the page. */
type View = { innerWidth: number; innerHeight: number };

/** How far each tab of the bar shows: whole, or cut at one of the bar's edges. */
function tabsShown(page: Page): Promise<{ label: string; whole: boolean }[]> {
  return page.$$eval('header nav.tabs a', (tabs) => {
    const bar = tabs[0]!.parentElement!.getBoundingClientRect();
    return tabs.map((tab) => {
      const box = tab.getBoundingClientRect();
      return {
        label: tab.textContent ?? '',
        whole: box.left >= bar.left - 1 && box.right <= bar.right + 1 && box.right <= (globalThis as unknown as View).innerWidth + 1,
      };
    });
  });
}

describe('the web pages on a phone', () => {
  it('say once, in a tab not logged in, what to do', async () => {
    const page = await phonePage(web.browser);
    await page.goto(`${web.base}/`);
    await page.waitForSelector('[data-testid="login-error"]');
    await screenshot(page, 'phone-logged-out');
    const text = (await page.textContent('main'))!;
    expect(text).toMatch(/Log in first: send \/dashboard to the bot \(or in the console\) for a login link, and open it\./);
    expect(text.match(/\/dashboard/g)).toHaveLength(1);
  });

  it('show every tab whole, whichever is open, and the empty chat says what to do with its input in view', async () => {
    const page = await web.loggedIn('phone');
    for (const hash of ['runs', 'approvals', 'chat']) {
      await page.goto(`${web.base}/#${hash}`);
      await page.waitForSelector(`header nav.tabs a[aria-current="page"][href="#${hash}"]`);
      expect(await tabsShown(page), hash).toEqual((await tabsShown(page)).map((tab) => ({ ...tab, whole: true })));
    }
    // A narrower phone: the tabs take a second row rather than a cut.
    const narrow = await web.loggedIn('phone', { context: { viewport: { width: 320, height: 640 } } });
    await narrow.goto(`${web.base}/#chat`);
    await narrow.waitForSelector('header nav.tabs a[aria-current="page"][href="#chat"]');
    expect((await tabsShown(narrow)).every((tab) => tab.whole)).toBe(true);
    await narrow.context().close();
    const hint = await page.waitForSelector('[data-testid="chat-empty"]');
    expect(await hint.textContent()).toMatch(/Write what you want done below.*\/help lists the commands/);
    await screenshot(page, 'phone-chat-empty');
    const input = await page.$eval('.chat form', (form) => ({
      bottom: form.getBoundingClientRect().bottom,
      height: (globalThis as unknown as View).innerHeight,
    }));
    expect(input.bottom).toBeLessThanOrEqual(input.height);
    // Its first message takes the hint's place.
    await page.fill('textarea[aria-label="Message"]', 'say:hello-from-the-phone');
    await page.click('.chat button[type="submit"]');
    await page.waitForSelector('.messages li:has-text("hello-from-the-phone")');
    expect(await page.$('[data-testid="chat-empty"]')).toBeNull();
    const after = await page.$eval('.chat form', (form) => ({
      bottom: form.getBoundingClientRect().bottom,
      height: (globalThis as unknown as View).innerHeight,
    }));
    expect(after.bottom).toBeLessThanOrEqual(after.height);
  });
});
