import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInitData } from '../support/fake-telegram/init-data.ts';
import { phonePage, screenshot } from '../support/browser.ts';
import { apiFrom, bearerIn, startWebWorld, type WebWorld } from '../support/web-world.ts';
import { GIT_ENV, repositoryWithOneCommit } from '../support/git-env.ts';
import { OWNER, ownerIn, type TelegramWorld } from '../support/telegram-world.ts';

// The dashboard and the chat page in a real browser (Debian's chromium) at phone width, against
// the bridge as a real process with the fake Bot API and the fake CLI.
let web: WebWorld;
let world: TelegramWorld;
let browser: Browser;
let base: string;
const PRIVATE = OWNER; // a private chat's id is its person's
const GROUP = -4200;
const me = ownerIn(() => world, PRIVATE);
const group = ownerIn(() => world, GROUP);

beforeAll(async () => {
  web = await startWebWorld({ BRIDGE_PERMISSION_MODE: 'ask', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' });
  ({ world, browser, base } = web);
}, 60_000);
afterAll(() => web?.stop());

const loginLink = () => web.loginLink();
const loggedIn = () => web.loggedIn();

describe('logging in', () => {
  it('takes a one-time link: the page uses it with its own POST, a second use is refused, and the session holds', async () => {
    const link = await loginLink();
    // A link preview fetches the page and runs no script: the link is still good afterwards.
    expect((await fetch(link)).status).toBe(200);
    const page = await phonePage(browser);
    await page.goto(link);
    await page.waitForSelector('header nav');
    expect(page.url()).toBe(`${base}/`);
    // The session is the tab's (its session storage), never a cookie: a reload keeps it.
    expect(await page.context().cookies()).toEqual([]);
    await page.reload();
    await page.waitForSelector('header nav');
    await screenshot(page, 'runs-empty');

    const again = await phonePage(browser);
    await again.goto(link);
    expect(await again.textContent('[data-testid="login-error"]')).toMatch(/used up or expired/);
    await again.context().close();
    await page.context().close();
  });

  it('sends the link privately when asked in a group', async () => {
    group.say('/dashboard');
    await group.waitText(/I sent you the login link privately/);
    await me.waitText(/The link works once/);
    expect(world.telegram.botMessages(GROUP).some((m) => /login#/.test(m.text ?? ''))).toBe(false);
  });

  it("refuses anything without the session's bearer, and logging out ends the session", async () => {
    expect((await fetch(`${base}/api/runs`)).status).toBe(401);
    const page = await loggedIn();
    const status = await page.evaluate(
      async () => (await fetch('/api/chat/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"hi"}' })).status,
    );
    expect(status).toBe(401);
    // Logging out ends the session: the page asks for a link again, and the old secret opens nothing.
    const bearer = await bearerIn(page);
    expect((await fetch(`${base}/api/runs`, { headers: { authorization: `Bearer ${bearer}` } })).status).toBe(200);
    await page.click('text=Log out');
    await page.waitForSelector('[data-testid="login-error"]');
    expect(await bearerIn(page)).toBeNull();
    expect((await fetch(`${base}/api/runs`, { headers: { authorization: `Bearer ${bearer}` } })).status).toBe(401);
    await page.context().close();
  });

  it('answers ids every object inherits (__proto__, constructor) as unknown ones, not as an internal error', async () => {
    const page = await loggedIn();
    const paths = ['__proto__', 'constructor', 'toString'].flatMap((id) => [
      ['GET', `/api/runs/${id}`],
      ['GET', `/api/runs/${id}/log`],
      ['GET', `/api/runs/${id}/diff`],
      ['GET', `/api/orchestrations/${id}`],
      ['GET', `/api/orchestrations/${id}/graph.svg`],
    ]);
    const answers = await Promise.all(paths.map(async ([method, path]) => `${method} ${path} ${(await apiFrom(page, path!, { method })).status}`));
    expect(answers).toEqual(paths.map(([method, path]) => `${method} ${path} 404`));
    await page.context().close();
  });

  it("accepts a Mini App's signed launch data, and refuses a forged one", async () => {
    const fields = { auth_date: String(Math.floor(Date.now() / 1000)), user: JSON.stringify({ id: OWNER, first_name: 'Ada' }), query_id: 'AAF' };
    const good = signInitData(fields, world.env.TELEGRAM_BOT_TOKEN!);
    const page = await phonePage(browser);
    await page.goto(`${base}/app#tgWebAppData=${encodeURIComponent(good)}&tgWebAppVersion=8.0`);
    await page.waitForSelector('header nav');
    expect(await page.textContent('.who')).toMatch(/^Ada\b/);
    // The page sends its bearer, files included.
    await page.goto(`${base}/#chat`);
    await page.fill('textarea', '/permissions bypass');
    await page.press('textarea', 'Enter');
    await page.fill('textarea', 'long:14000');
    await page.press('textarea', 'Enter');
    const file = await page.waitForSelector('.messages a.file[href^="blob:"]', { timeout: 20_000 });
    expect(await file.getAttribute('download')).toMatch(/\.md$/);
    await page.context().close();

    const forged = signInitData(fields, '123:not-the-bot-token-00000000000000000');
    const other = await phonePage(browser);
    await other.goto(`${base}/app#tgWebAppData=${encodeURIComponent(forged)}`);
    expect(await other.textContent('[data-testid="login-error"]')).toMatch(/refused \(bad signature\)/);
    await other.context().close();

    const stranger = signInitData({ ...fields, user: JSON.stringify({ id: 999, first_name: 'Eve' }) }, world.env.TELEGRAM_BOT_TOKEN!);
    const response = await fetch(`${base}/api/auth/in-app`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ launchData: stranger }),
    });
    expect(response.status).toBe(403);
  });
});

describe('the dashboard', () => {
  it("shows a run's status change within a second, and its log", async () => {
    const page = await loggedIn();
    group.say('/permissions bypass');
    await group.waitText(/^🔐 Permissions: bypass/);
    group.say('/spawn --label Watched "tools:2 wait-for:go say:watched-done"');
    const row = await page.waitForSelector('[data-run][data-status="running"]', { timeout: 20_000 });
    const runId = (await row.getAttribute('data-run'))!;
    await screenshot(page, 'runs');
    await writeFile(join(world.workdir, 'go'), '');
    await group.waitText(/^✅ #\d+ Watched/);
    // The run's end is saved before it is announced: by the announcement the page has heard of it.
    await page.waitForSelector(`[data-run="${runId}"][data-status="completed"]`, { timeout: 10_000 });
    await page.click(`[data-run="${runId}"] a`);
    await page.waitForSelector('[data-testid="run-status"]');
    await expect.poll(() => page.textContent('[data-testid="run-log"]'), { timeout: 10_000 }).toContain('🔧');
    expect(await page.textContent('[data-testid="run-status"]')).toBe('completed');
    await screenshot(page, 'run');
    await page.context().close();
  });

  it('answers a question waiting for Allow from the page', async () => {
    const page = await loggedIn();
    group.say('/permissions ask');
    await group.waitText(/^🔐 Permissions: ask/);
    group.say('tools:1 say:allowed-from-the-page');
    await page.goto(`${base}/#approvals`);
    const card = await page.waitForSelector('[data-question]', { timeout: 20_000 });
    expect(await card.textContent()).toContain('Bash');
    await screenshot(page, 'approvals');
    await page.click('[data-question] button:has-text("Allow")');
    await group.waitText(/^allowed-from-the-page/);
    await page.waitForSelector('[data-testid="no-approvals"]');
    const question = world.telegram.botMessages(GROUP).find((m) => /Bash/.test(m.text ?? '') && /Allowed by/.test(m.text ?? ''));
    expect(question?.text).toMatch(/✅ Allowed by Ada$/);
    await page.context().close();
  });

  it('shows the cost per day and the audit log', async () => {
    const page = await loggedIn();
    await page.goto(`${base}/#costs`);
    await page.waitForSelector('[data-testid="cost-chart"] canvas', { timeout: 10_000 });
    expect(await page.textContent('.totals')).toContain('claude');
    // Split by person: the owner's own turns are theirs.
    await page.waitForSelector('[data-testid="cost-people"]');
    expect(await page.textContent('[data-testid="cost-people"]')).toMatch(/Ada \(telegram:111\)\$\d+\.\d+/);
    await screenshot(page, 'costs');
    await page.goto(`${base}/#audit`);
    await page.waitForSelector('[data-testid="audit"]');
    expect(await page.textContent('[data-testid="audit"]')).toContain('tool_approved');
    await screenshot(page, 'audit');
    await page.context().close();
  });
});

describe('reviewing a worktree run', () => {
  it("renders its diff, and merges it into the chat's checkout", async () => {
    const repo = join(world.workdir, 'project');
    const git = (...args: string[]) => execa('git', args, { cwd: repo, env: GIT_ENV });
    await repositoryWithOneCommit(repo);
    const chat = ownerIn(() => world, -4300);
    chat.say('/cd project');
    await chat.waitText(/^📁 Now in /);
    chat.say('/permissions bypass');
    await chat.waitText(/^🔐 Permissions: bypass/);
    chat.say('/spawn --worktree --label Feature "write:feature.txt commit say:added"');
    await chat.waitText(/^✅ #\d+ Feature/);
    const page = await loggedIn();
    const row = await page.waitForSelector('[data-run][data-status="completed"]:has-text("Feature")', { timeout: 10_000 });
    await row.click();
    await page.waitForSelector('[data-testid="diff"] .d2h-file-header', { timeout: 10_000 });
    expect(await page.textContent('[data-testid="diff"]')).toContain('feature.txt');
    await screenshot(page, 'review');
    await page.click('[data-testid="review"] button:has-text("Merge")', { timeout: 10_000 });
    await expect.poll(() => page.textContent('[data-testid="review-told"]'), { timeout: 10_000 }).toMatch(/Merged/);
    expect((await git('log', '--format=%s', '-1')).stdout).toMatch(/Merge/);
    expect(existsSync(join(repo, 'feature.txt'))).toBe(true);
    await page.context().close();
  });
});

describe('the chat page', () => {
  it("is the person's own chat: it answers, shows progress, and its buttons work", async () => {
    const page = await loggedIn();
    await page.goto(`${base}/chat`);
    await page.waitForSelector('[data-testid="chat"]');
    await page.fill('textarea', '/permissions bypass');
    await page.press('textarea', 'Enter');
    await page.waitForSelector('.messages li.bridge:has-text("Permissions: bypass")');
    await page.fill('textarea', 'tools:2 say:hello-from-the-web');
    await page.click('form button[type="submit"]');
    await page.waitForSelector('.messages li.you:has-text("hello-from-the-web")');
    await page.waitForSelector('.messages li.bridge:has-text("hello-from-the-web")', { timeout: 20_000 });
    await screenshot(page, 'chat');
    // Its own session: the fake CLI ran in the web chat, not in a Telegram one.
    const runs = await world.cli.invocations();
    expect(runs.some((r) => r.prompt.startsWith('tools:2 say:hello-from-the-web'))).toBe(true);
    // A Stop button while it works.
    await page.fill('textarea', 'wait-for:never say:stopped');
    await page.press('textarea', 'Enter');
    const stop = await page.waitForSelector('.messages li.bridge button:has-text("Stop")', { timeout: 20_000 });
    await stop.click();
    await page.waitForSelector('.messages li.bridge:has-text("Stopped")', { timeout: 20_000 });
    await page.context().close();
  });
});
