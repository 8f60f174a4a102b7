import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/browser.ts';
import { ownerIn, type TelegramWorld } from '../support/telegram-world.ts';
import { startWebWorld, statusFromPage, type WebWorld } from '../support/web-world.ts';

// The dashboard draws an orchestration with the SVG the chat's picture is made of
// (GET /api/orchestrations/:id/graph.svg): a node per step, found by its id, whose state
// follows the step's.
let web: WebWorld;
let world: TelegramWorld;
const GROUP = -4300;
const group = ownerIn(() => world, GROUP);

beforeAll(async () => {
  web = await startWebWorld();
  world = web.world;
}, 60_000);
afterAll(() => web?.stop());

describe('the graph page', () => {
  it('draws the orchestration with its nodes, which change state as its steps end', async () => {
    group.say('/orchestrate name: Drawn\nfirst: wait-for:go say:one\nsecond <- first: say:two');
    await group.waitText(/^🧭 #1 Drawn/);
    // Logged in with the one-time link /dashboard gives.
    const page = await web.loggedIn();
    await page.goto(`${web.base}/#graphs`);
    const graph = '[data-testid="graph"] svg';
    await page.waitForSelector(`${graph} g[data-node="first"][data-state="running"]`, { timeout: 20_000 });
    await page.waitForSelector(`${graph} g[data-node="second"][data-state="waiting"]`);
    expect(await page.locator(`${graph} path[data-from="first"][data-to="second"]`).count()).toBe(1);
    await screenshot(page, 'graph-running');

    await writeFile(join(world.workdir, 'go'), '');
    await page.waitForSelector(`${graph} g[data-node="second"][data-state="done"]`, { timeout: 20_000 });
    expect(await page.locator(`${graph} g[data-node]`).count()).toBe(2);
    expect(await page.locator(`${graph} g[data-node="first"]`).textContent()).toContain('done');
    await screenshot(page, 'graph-done');
    // With the web pages served too, the chat app still gets its picture (through the outbound that routes by chat).
    await world.telegram.waitForBotMessage(GROUP, (m) => m.media?.kind === 'photo' && m.caption === '#1 Drawn · 2/2 done · completed', 10_000);

    // Only with a session, and only for an orchestration that exists.
    const id = (await page.getAttribute('[data-testid="graph"]', 'data-orchestration'))!;
    expect((await fetch(`${web.base}/api/orchestrations/${id}/graph.svg`)).status).toBe(401);
    const fetched = await page.evaluate<{ status: number; type: string | null; body: string }>(
      `fetch(${JSON.stringify(`/api/orchestrations/${id}/graph.svg`)}, { headers: { authorization: 'Bearer ' + sessionStorage.getItem('jb-bearer') } })
        .then(async (response) => ({ status: response.status, type: response.headers.get('content-type'), body: await response.text() }))`,
    );
    expect(fetched).toMatchObject({ status: 200, type: 'image/svg+xml; charset=utf-8' });
    expect(fetched.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const missing = await statusFromPage(page, '/api/orchestrations/nope/graph.svg');
    expect(missing).toBe(404);
    await page.context().close();
  });
});
