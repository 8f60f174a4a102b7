import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser.ts';
import { OWNER, ownerIn, type TelegramWorld } from '../support/telegram-world.ts';
import { apiFrom, startWebWorld, type WebWorld } from '../support/web-world.ts';

// What the chat does, from the dashboard: Stop a run or a plan (the chat's own calls, audited,
// announced once), and a run waiting for approval says so and leads to its question. Each chat
// is named as its people know it. The bridge is a real process, the browser Debian's chromium.
let web: WebWorld;
let world: TelegramWorld;
const OPS = -5100;
const PLANS = -5200;
const ASKING = -5300;
/** Allowed, and in none of the chats above. */
const BOB = 222;
const inChat = (chatId: number, chatTitle: string) => {
  const chat = ownerIn(() => world, chatId);
  return { ...chat, say: (text: string) => world.telegram.sendText({ chatId, userId: OWNER, text, firstName: 'Ada', chatTitle }) };
};
let ops: ReturnType<typeof inChat>;
let plans: ReturnType<typeof inChat>;
let asking: ReturnType<typeof inChat>;

beforeAll(async () => {
  web = await startWebWorld({ BRIDGE_ALLOWED_USERS: `${OWNER},${BOB}` });
  world = web.world;
  ops = inChat(OPS, 'Ops room');
  plans = inChat(PLANS, 'Plans room');
  asking = inChat(ASKING, 'Asking room');
}, 60_000);
afterAll(() => web?.stop());

const auditLines = async () =>
  (await readFile(join(world.dataDir, 'audit.jsonl'), 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { event: string; runId?: string; by?: string; chat?: string });

/** Presses a button from the keyboard, as a person without a mouse does. */
async function pressWithKeyboard(page: Page, selector: string): Promise<void> {
  await page.focus(selector);
  await page.keyboard.press('Enter');
}

describe('stopping from the dashboard', () => {
  it('stops a run from its page as /subagents stop does: audited with who, and its chat gets the one announcement', async () => {
    ops.say('/permissions bypass');
    await ops.waitText(/^🔐 Permissions: bypass/);
    ops.say('/spawn --label Endless "tools:1 wait-for:never say:never"');
    await ops.waitText(/^🚀 #1 started/);
    const page = await web.loggedIn('desk');
    const row = await page.waitForSelector('[data-run][data-status="running"]:has-text("Endless")', { timeout: 20_000 });
    const runId = (await row.getAttribute('data-run'))!;
    // Named as its people know it, numbered within it, and when, in words and as a machine reads it.
    expect(await row.textContent()).toMatch(/^Ops room · #1 Endless/);
    expect(await row.$eval('time', (t) => [t.textContent, t.getAttribute('datetime')])).toEqual(['just now', expect.stringMatching(/^\d{4}-\d\d-\d\dT/)]);
    // One line per run on a desk.
    expect((await row.boundingBox())!.height).toBeLessThan(50);

    await pressWithKeyboard(page, `[data-run="${runId}"] a.title`);
    await page.waitForSelector('[data-testid="stop"]');
    // The page opens at its top, with its title under the header, not at the end of its log.
    expect(await page.evaluate('scrollY')).toBe(0);
    await screenshot(page, 'run-running-desk');
    await pressWithKeyboard(page, '[data-testid="stop"]');
    await expect.poll(() => page.textContent('[data-testid="stop-told"]'), { timeout: 10_000 }).toBe('⏹ Stopping #1 Endless.');
    await page.waitForSelector(`[data-run="${runId}"][data-status="stopped"]`, { timeout: 20_000 });
    expect(await page.locator('[data-testid="stop"]').count()).toBe(0);

    const announced = await ops.waitText(/^❌ #1 Endless/);
    expect(announced.text).toMatch(/Stopped:\*?\*? stopped by Ada/);
    await expect.poll(auditLines).toContainEqual(expect.objectContaining({ event: 'stop', runId, by: 'Ada', chat: `telegram:${OPS}` }));
    // Once: a second stop is refused, and no second announcement comes.
    const again = await apiFrom(page, `/api/runs/${runId}/stop`, { method: 'POST' });
    expect(again).toEqual({ status: 409, body: { error: '#1 has already ended (stopped).' } });
    ops.say('/subagents list');
    await ops.waitText(/#1 Endless/);
    expect(world.telegram.botMessages(OPS).filter((m) => /^❌ #1 Endless/.test(m.text ?? ''))).toHaveLength(1);
    await page.context().close();
  });

  it("refuses a stop without a session, and to someone not in the run's chat, as the chat would", async () => {
    ops.say('/spawn --label Guarded "tools:1 wait-for:never say:never"');
    await ops.waitText(/^🚀 #\d+ started/);
    const owner = await web.loggedIn();
    const runs = async () => (await apiFrom(owner, '/api/runs')).body as { runId: string; name: string; status: string }[];
    await expect.poll(async () => (await runs()).find((run) => run.name === 'Guarded')?.status, { timeout: 20_000 }).toBe('running');
    const id = (await runs()).find((run) => run.name === 'Guarded')!.runId;
    expect((await fetch(`${web.base}/api/runs/${id}/stop`, { method: 'POST' })).status).toBe(401);
    // Bob is allowed, and not in the Ops room: its run is no run to him, and it goes on.
    const bob = await web.loggedIn('phone', { user: BOB });
    expect(await apiFrom(bob, `/api/runs/${id}/stop`, { method: 'POST' })).toEqual({ status: 404, body: { error: 'No such run.' } });
    expect((await runs()).find((run) => run.runId === id)?.status).toBe('running');
    expect(await apiFrom(bob, '/api/orchestrations/nope/stop', { method: 'POST' })).toEqual({ status: 404, body: { error: 'No such orchestration.' } });
    expect((await apiFrom(owner, `/api/runs/${id}/stop`, { method: 'POST' })).status).toBe(200);
    await ops.waitText(/^❌ #\d+ Guarded/);
    await owner.context().close();
    await bob.context().close();
  });

  it('stops a plan from its graph as /orchestrations stop does: steps not started are skipped, the running one stopped', async () => {
    plans.say('/permissions bypass');
    await plans.waitText(/^🔐 Permissions: bypass/);
    plans.say('/orchestrate name: Halted\nfirst: wait-for:never say:one\nsecond <- first: say:two');
    await plans.waitText(/^🧭 #1 Halted/);
    const page = await web.loggedIn();
    await page.goto(`${web.base}/#graphs`);
    await page.waitForSelector('[data-testid="graph"] svg g[data-node="first"][data-state="running"]', { timeout: 20_000 });
    expect(await page.textContent('h1')).toBe('Plans room · #1 Halted');
    await pressWithKeyboard(page, '[data-testid="stop"]');
    await expect.poll(() => page.textContent('[data-testid="stop-told"]'), { timeout: 10_000 }).toBe('⏹ Stopping orchestration #1 Halted.');
    await page.waitForSelector('[data-orchestration-page][data-status="stopped"]', { timeout: 20_000 });
    await page.waitForSelector('[data-step="second"][data-status="skipped"]');
    await plans.waitText(/^❌ Halted \(orchestration #1\) · [\d:]+ · stopped by Ada\n/);
    await screenshot(page, 'graph-stopped');
    await expect.poll(auditLines).toContainEqual(expect.objectContaining({ event: 'stop', by: 'Ada', chat: `telegram:${PLANS}` }));
    await page.context().close();
  });
});

describe('what a run page and the list show', () => {
  it("renders a result's Markdown as the chat does: styled text, no markup, no unsafe link", async () => {
    ops.say('/spawn --label Marked "say:**Done**,[bad](javascript:alert(1)),[good](https://example.com/x),<img/src/onerror=alert(1)>"');
    await ops.waitText(/^✅ #\d+ Marked/);
    const page = await web.loggedIn();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.click('[data-run]:has-text("Marked") a.title', { timeout: 20_000 });
    const result = await page.waitForSelector('[data-testid="run-result"]');
    expect(await result.$eval('strong', (b) => b.textContent)).toBe('Done');
    expect(await result.$$eval('a', (links) => links.map((a) => [a.textContent, a.getAttribute('href')]))).toEqual([['good', 'https://example.com/x']]);
    expect(await result.$$('img, [onerror]')).toHaveLength(0);
    expect(await result.textContent()).toContain('bad');
    expect(dialogs).toEqual([]);
    await page.context().close();
  });

  it("shows a plan's step with its own prompt, not the results of the steps before it", async () => {
    plans.say('/orchestrate name: Chained\nfirst: say:one\nsecond <- first: say:two');
    await plans.waitText(/^✅ Chained \(orchestration #2\)/);
    const page = await web.loggedIn();
    const row = await page.waitForSelector('[data-run]:has-text("Plans room · #3 second")', { timeout: 20_000 });
    expect(await row.$eval('.task', (t) => t.textContent)).toBe('say:two');
    await page.context().close();
  });
});

describe('a run waiting for approval', () => {
  it('says "waiting for your answer" in the list and on its page, and its link leads to the question, answered there', async () => {
    asking.say('/permissions ask');
    await asking.waitText(/^🔐 Permissions: ask/);
    asking.say('/spawn --label Careful "tools:1 say:careful-done"');
    const page = await web.loggedIn();
    const link = await page.waitForSelector('[data-run]:has-text("Careful") [data-testid="waiting"]', { timeout: 20_000 });
    expect(await link.textContent()).toContain('waiting for your answer');
    await screenshot(page, 'runs-waiting');
    const questionId = (await link.getAttribute('data-question-link'))!;

    // On its page too.
    await page.click('[data-run]:has-text("Careful") a.title');
    await page.waitForSelector('[data-testid="run-status"] [data-testid="waiting"]');
    await pressWithKeyboard(page, '[data-testid="run-status"] [data-testid="waiting"]');

    // The approvals view, at that question, with the keyboard's focus on it.
    await page.waitForSelector(`#question-${questionId}.selected`);
    expect(page.url()).toBe(`${web.base}/#approvals/${questionId}`);
    expect(await page.evaluate('document.activeElement?.id')).toBe(`question-${questionId}`);
    expect(await page.textContent(`#question-${questionId}`)).toContain('Asking room');
    await screenshot(page, 'approval-linked');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Asking room');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('✅ Allow');
    await page.keyboard.press('Enter');
    await asking.waitText(/^✅ #1 Careful/);
    await page.goto(`${web.base}/#runs`);
    await page.waitForSelector('[data-run][data-status="completed"]:has-text("Careful")', { timeout: 10_000 });
    expect(await page.locator('[data-testid="waiting"]').count()).toBe(0);
    await page.context().close();
  });
});
