import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phonePage } from '../support/browser.ts';
import { OWNER, shownText, type TelegramWorld } from '../support/telegram-world.ts';
import { apiFrom, startWebWorld, type WebWorld } from '../support/web-world.ts';

// Share links against the bridge as a real process, the fake Bot API (whose getChatMember says
// who is in the group) and a real browser: /export's link (and the run page's) opens read-only
// for a person of the chat, and for nobody else.
let web: WebWorld;
let world: TelegramWorld;
const BOB = 222; // in the group
const CAROL = 333; // allowed, not in the group
const GROUP = -4700;

beforeAll(async () => {
  web = await startWebWorld({ BRIDGE_ALLOWED_USERS: `${OWNER},${BOB},${CAROL}` });
  ({ world } = web);
}, 60_000);
afterAll(() => web?.stop());

const say = (text: string) => world.telegram.sendText({ chatId: GROUP, userId: OWNER, text, firstName: 'Ada', chatType: 'group', chatTitle: 'Build room' });
const waitText = (pattern: RegExp) => world.telegram.waitFor(() => world.telegram.botMessages(GROUP).find((m) => pattern.test(shownText(m))), 30_000);

/** A person's page, logged in (which makes them known to the fake Bot API), at `path`. */
async function openAs(user: number, path: string): Promise<Page> {
  const page = await web.loggedIn('desk', { user });
  await page.goto(`${web.base}${path}`);
  return page;
}

const tokenOf = (path: string) => path.slice('/share#'.length);

describe('a share link', () => {
  let sessionLink = '';

  it('comes with /export, opens read-only for a person of the chat, with the tool calls folded, and acts on nothing', async () => {
    say('tools:1 say:**Shared**');
    await waitText(/^Shared$/);
    say('/export');
    const offer = await waitText(/^🔗 A read-only page/);
    sessionLink = new URL(/(http:\/\/\S+\/share#\S+)/.exec(shownText(offer))![1]!).href.slice(web.base.length);
    expect(offer.buttons.map((button) => (button as { url?: string }).url)).toEqual([`${web.base}${sessionLink}`]);

    // Bob is of the chat before his first page: the dashboard asks who is in which chat, and keeps a stranger's answer a while.
    world.telegram.setStanding(GROUP, BOB, { status: 'member' });
    await openAs(BOB, '/').then((page) => page.context().close());
    const bob = await openAs(BOB, sessionLink);
    await bob.waitForSelector('[data-testid="answer"]', { timeout: 20_000 });
    expect(await bob.textContent('h1')).toBe('Session with claude');
    expect(await bob.textContent('.facts')).toContain('Build room');
    expect(await bob.textContent('.prompt')).toBe('tools:1 say:**Shared**');
    expect(await bob.innerHTML('[data-testid="answer"]')).toContain('<strong>Shared</strong>');
    const call = bob.locator('[data-testid="tool-call"]');
    expect(await call.count()).toBe(1);
    expect(await call.getAttribute('open')).toBe(null);
    await call.locator('summary').click();
    expect(await call.textContent()).toContain('"command": "echo step 1"');
    expect(await call.locator('pre').nth(1).textContent()).toBe('step 1');
    // Read-only: nothing on it acts, and none of the dashboard's tabs or actions frame it.
    expect(await bob.locator('button, form, input, textarea, select, [role="button"], nav').count()).toBe(0);
    // Nothing of the bridge's own (its data directory, its secrets) is in the page.
    expect(await bob.content()).not.toContain(world.dataDir);
    await bob.context().close();
  });

  it("is refused to an allowed person who is not in the chat, to a link that was altered, and to nobody's session", async () => {
    const carol = await openAs(CAROL, sessionLink);
    expect(await (await carol.waitForSelector('[data-testid="share-error"]', { timeout: 20_000 })).textContent()).toBe(
      'This conversation is shared with the people of its chat only, and you are not one of them. Someone of that chat can send it to you with /export.',
    );
    expect(await carol.locator('[data-testid="turn"]').count()).toBe(0);
    expect((await apiFrom(carol, '/api/shares/open', { method: 'POST', body: { token: tokenOf(sessionLink) } })).status).toBe(403);
    await carol.context().close();

    const bob = await openAs(BOB, `${sessionLink.slice(0, -1)}${sessionLink.endsWith('A') ? 'B' : 'A'}`);
    expect(await (await bob.waitForSelector('[data-testid="share-error"]', { timeout: 20_000 })).textContent()).toMatch(
      /^This link does not work: it has expired, was revoked, or was never made\./,
    );
    expect((await apiFrom(bob, '/api/shares/open', { method: 'POST', body: { token: 'nothing.at.all' } })).status).toBe(404);
    expect((await apiFrom(bob, '/api/shares/open', { method: 'POST', body: {} })).status).toBe(404);
    await bob.context().close();

    const stranger = await phonePage(web.browser);
    await stranger.goto(`${web.base}${sessionLink}`);
    expect(await (await stranger.waitForSelector('[data-testid="login-error"]', { timeout: 20_000 })).textContent()).toMatch(/^Log in first/);
    expect(await stranger.textContent('main')).toContain('open this link again');
    expect(await stranger.textContent('main')).not.toContain('Shared');
    await stranger.context().close();
  });

  it("is made for a run from its dashboard page, and /export unshare revokes the chat's links", async () => {
    say('/spawn --label Shown "tools:1 say:ran"');
    await waitText(/^✅ #1 Shown/);
    const ada = await web.loggedIn('desk');
    await ada.waitForSelector('[data-run]:has-text("Shown")', { timeout: 20_000 });
    const runId = (await ada.getAttribute('[data-run]:has-text("Shown")', 'data-run'))!;
    await ada.goto(`${web.base}/#run/${runId}`);
    await ada.click('button:has-text("Share link")');
    const runLink = (await (await ada.waitForSelector('[data-testid="share-link"] a')).getAttribute('href'))!.slice(web.base.length);
    await ada.context().close();

    const bob = await openAs(BOB, runLink);
    await bob.waitForSelector('[data-testid="answer"]', { timeout: 20_000 });
    expect(await bob.textContent('h1')).toContain('Run #1 Shown');
    expect(await bob.getAttribute('[data-testid="shared"]', 'data-kind')).toBe('run');
    expect(await bob.locator('[data-testid="tool-call"]').count()).toBe(1);
    expect(await bob.locator('button, form, input, textarea, select, nav').count()).toBe(0);

    say('/export unshare');
    await waitText(/^🔒 Revoked 2 share links of this chat\.$/);
    for (const link of [runLink, sessionLink]) {
      await bob.goto(`${web.base}${link}`);
      await bob.reload();
      expect(await (await bob.waitForSelector('[data-testid="share-error"]', { timeout: 20_000 })).textContent()).toMatch(/^This link does not work/);
    }
    await bob.context().close();
  });
});
