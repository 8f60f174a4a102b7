import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIZES, screenshot, type Size } from '../support/browser.ts';
import { OWNER, type TelegramWorld } from '../support/telegram-world.ts';
import { startWebWorld, type WebWorld } from '../support/web-world.ts';
import { repositoryWithOneCommit } from '../support/git-env.ts';

// axe-core, the engine of the browsers' own accessibility tools, run inside the real Chromium on
// every page of the dashboard at phone and desk size: no serious or critical problem anywhere.
const AXE = createRequire(import.meta.url).resolve('axe-core');
let web: WebWorld;
let world: TelegramWorld;
const ids = { run: '', worktreeRun: '', orchestration: '', question: '', share: '' };

/** One chat of the owner's, titled as a group is. */
function chat(chatId: number, chatTitle: string) {
  return {
    say: (text: string) => world.telegram.sendText({ chatId, userId: OWNER, text, firstName: 'Ada', chatTitle }),
    waitText: (pattern: RegExp) => world.telegram.waitForBotMessage(chatId, (m) => pattern.test(m.text ?? m.caption ?? ''), 20_000),
  };
}

beforeAll(async () => {
  web = await startWebWorld({ GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' });
  world = web.world;
  // A run with a result in Markdown, a plan, a worktree run to review, and a question left waiting.
  const team = chat(-6100, 'Team room');
  team.say('/permissions bypass');
  await team.waitText(/^🔐 Permissions: bypass/);
  team.say('/spawn --label Notes "tools:2 say:**Done**"');
  await team.waitText(/^✅ #1 Notes/);
  team.say('/orchestrate name: Drawn\nfirst: say:one\nsecond <- first: say:two');
  await team.waitText(/^✅ Drawn \(orchestration #1\)/);
  // A turn of the chat's own session, exported: its share link's page.
  team.say('tools:2 say:**Talked**');
  await team.waitText(/^Talked/);
  team.say('/export');
  ids.share = /\/share#\S+/.exec((await team.waitText(/^🔗 A read-only page/)).text ?? '')![0];

  const repo = join(world.workdir, 'project');
  await repositoryWithOneCommit(repo);
  const code = chat(-6200, 'Code room');
  code.say('/cd project');
  await code.waitText(/^📁 Now in /);
  code.say('/permissions bypass');
  await code.waitText(/^🔐 Permissions: bypass/);
  code.say('/spawn --worktree --label Feature "write:feature.txt commit say:added"');
  await code.waitText(/^✅ #1 Feature/);

  const asking = chat(-6300, 'Asking room');
  asking.say('/permissions ask');
  await asking.waitText(/^🔐 Permissions: ask/);
  asking.say('/spawn --label Careful "tools:1 say:careful"');

  const page = await web.loggedIn();
  const find = (selector: string, attribute: string) =>
    page.waitForSelector(selector, { timeout: 20_000 }).then(async (element) => (await element.getAttribute(attribute))!);
  ids.run = await find('[data-run]:has-text("Notes")', 'data-run');
  ids.worktreeRun = await find('[data-run]:has-text("Feature")', 'data-run');
  ids.question = await find('[data-run]:has-text("Careful") [data-testid="waiting"]', 'data-question-link');
  await page.goto(`${web.base}/#graphs`);
  ids.orchestration = await find('[data-testid="graph"]', 'data-orchestration');
  // The person's own chat, with a message each way.
  await page.goto(`${web.base}/chat`);
  await page.fill('textarea', '/permissions bypass');
  await page.press('textarea', 'Enter');
  await page.waitForSelector('.messages li.bridge:has-text("Permissions: bypass")', { timeout: 20_000 });
  await page.context().close();
}, 120_000);
afterAll(() => web?.stop());

/** Each page, where it is, and what shows it is drawn. */
const PAGES: { name: string; path: () => string; ready: string; loggedOut?: true }[] = [
  { name: 'runs', path: () => '/#runs', ready: '[data-run][data-status="completed"]' },
  { name: 'run', path: () => `/#run/${ids.run}`, ready: '[data-testid="run-result"] strong' },
  { name: 'review', path: () => `/#run/${ids.worktreeRun}`, ready: '[data-testid="diff"] .d2h-file-header' },
  { name: 'graph', path: () => `/#graphs/${ids.orchestration}`, ready: '[data-testid="graph"] svg g[data-node]' },
  { name: 'approvals', path: () => `/#approvals/${ids.question}`, ready: '[data-question].selected' },
  { name: 'costs', path: () => '/#costs', ready: '[data-testid="cost-chart"] canvas' },
  { name: 'audit', path: () => '/#audit', ready: '[data-testid="audit"]' },
  { name: 'chat', path: () => '/chat', ready: '.messages li.bridge' },
  { name: 'share', path: () => ids.share, ready: '[data-testid="answer"] strong' },
  { name: 'login', path: () => '/', ready: '[data-testid="login-error"]', loggedOut: true },
];

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[]; failureSummary: string }[];
}

/** axe-core's serious and critical findings on the page as it is now. */
async function seriousProblems(page: Page): Promise<Violation[]> {
  await page.addScriptTag({ path: AXE });
  // Run in the page (a string: the test's own types know no DOM), each finding cut to its first nodes.
  const violations = await page.evaluate<Violation[]>(`axe.run().then((results) => results.violations.map(({ id, impact, help, nodes }) => ({
    id,
    impact: impact ?? '',
    help,
    nodes: nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary ?? '' })),
  })))`);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

const listed = (violations: Violation[]) =>
  violations.map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(' ')}: ${n.failureSummary}`).join('\n')}`).join('\n');

/** Phone and desk, and a phone in dark mode (whose colours must read as well). */
const LOOKS: { size: Size; scheme: 'light' | 'dark' }[] = [
  { size: 'phone', scheme: 'light' },
  { size: 'desk', scheme: 'light' },
  { size: 'phone', scheme: 'dark' },
];

describe.each(LOOKS)('at $size size, $scheme', ({ size, scheme }) => {
  it.each(PAGES)('the $name page has no serious or critical accessibility problem', async ({ name, path, ready, loggedOut }) => {
    // The pages' CSP admits no script of the test's: axe is let in past it, as a browser's own tools are.
    const options = { bypassCSP: true, colorScheme: scheme };
    const page = loggedOut ? await SIZES[size](web.browser, options) : await web.loggedIn(size, { context: options });
    await page.goto(`${web.base}${path()}`);
    await page.waitForSelector(ready, { timeout: 20_000 });
    await screenshot(page, `a11y-${name}-${size}${scheme === 'dark' ? '-dark' : ''}`);
    const problems = await seriousProblems(page);
    expect(problems, listed(problems)).toEqual([]);
    // Nothing is cut at the side: what is wider than a phone (a diff, the tab bar) scrolls in its own box.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - innerWidth')).toBeLessThanOrEqual(0);
    await page.context().close();
  });
});

describe('the frame around every page', () => {
  it('keeps the tab bar unfaded where every tab fits or wraps to a row of its own (phones), as on a desk', async () => {
    // A phone's bar never scrolls (a tab cut at its edge read as "s"): see phone-first-look.test.ts.
    for (const [size, context] of [
      ['phone', {}],
      ['phone', { viewport: { width: 320, height: 640 } }],
      ['desk', {}],
    ] as const) {
      const page = await web.loggedIn(size, { context });
      await page.goto(`${web.base}/#chat`);
      await page.waitForSelector('header nav.tabs a[aria-current="page"][href="#chat"]');
      // Once laid out (the bar is measured again as its box settles), no edge fades.
      await expect.poll(() => page.locator('nav.tabs').getAttribute('class'), { message: `${size} ${JSON.stringify(context)}` }).toBe('tabs');
      await page.context().close();
    }
  });

  it('has a favicon, served as SVG and linked from the page', async () => {
    const icon = await fetch(`${web.base}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await icon.text()).toMatch(/^<svg /);
    const page = await (await fetch(`${web.base}/`)).text();
    expect(page).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg" />');
  });
});

describe('from the keyboard', () => {
  it('reaches every tab and the scrollable log, with the focus visible', async () => {
    const page = await web.loggedIn('desk');
    await page.goto(`${web.base}/#run/${ids.run}`);
    await page.waitForSelector('[data-testid="run-log"] li');
    const reached: string[] = [];
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate<{ name: string; outline: boolean } | undefined>(`(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return undefined;
        const style = getComputedStyle(el);
        const name = el.dataset.testid ?? el.getAttribute('href') ?? el.textContent?.trim().slice(0, 30) ?? '';
        return { name, outline: style.outlineStyle !== 'none' && style.outlineWidth !== '0px' };
      })()`);
      if (!focused) continue;
      expect(focused.outline, `the focus on "${focused.name}" is visible`).toBe(true);
      reached.push(focused.name);
    }
    expect(reached).toEqual(expect.arrayContaining(['#runs', '#graphs', '#costs', '#audit', '#approvals', '#chat', 'run-log']));
    await page.context().close();
  });
});
