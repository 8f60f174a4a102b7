import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebWorld, type WebWorld } from '../support/web-world.ts';

// The chat page's box in a real browser: what it refuses stays there to be fixed.
let web: WebWorld;
beforeAll(async () => {
  web = await startWebWorld();
}, 60_000);
afterAll(() => web?.stop());

describe('the chat box', () => {
  it('keeps a draft it refuses for length, says why, and sends nothing', async () => {
    const page = await web.loggedIn();
    await page.goto(`${web.base}/chat`);
    await page.waitForSelector('[data-testid="chat"]');
    const draft = 'a'.repeat(5000);
    await page.fill('textarea', draft);
    await page.press('textarea', 'Enter');
    await page.waitForSelector('.toast:has-text("Not sent: this message is 5,000 characters, and a message holds at most 4,096.")');
    expect(await page.inputValue('textarea')).toBe(draft);
    expect(await page.locator('.messages li.you').count()).toBe(0);
    expect((await web.world.cli.invocations()).length).toBe(0);
    await page.context().close();
  });
});
