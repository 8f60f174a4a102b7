import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts } from '../support/browser.ts';
import { addWorkers, TEST_LOCK_SECONDS, TEST_QUEUE_SECRET, type QueueWorld } from '../support/queue-world.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';
import { OWNER, shownText } from '../support/telegram-world.ts';
import { apiFrom, startWebWorld, type WebWorld } from '../support/web-world.ts';

// Where each chat's session runs, on the dashboard: a chat on a worker says which.
let redis: RedisServer;
let web: WebWorld;
let world: QueueWorld;
beforeAll(async () => {
  redis = await startRedis();
  web = await startWebWorld({
    BRIDGE_REDIS_URL: redis.url,
    BRIDGE_QUEUE_SECRET: TEST_QUEUE_SECRET,
    BRIDGE_WORKER_LOCK_SECONDS: String(TEST_LOCK_SECONDS),
    BRIDGE_SESSION_WORKERS: 'on',
  });
  world = await addWorkers(web.world, redis, ['desk-worker']);
}, 120_000);
afterAll(async () => {
  // The world stops the bridge and its workers; the browser is the test process's, kept.
  if (web) await closeContexts(web.browser);
  await world?.stop();
  await redis?.stop();
});

describe("the dashboard's chats' sessions", () => {
  it('lists a chat whose CLI is kept on a worker, naming the worker', async () => {
    world.telegram.sendText({ chatId: OWNER, userId: OWNER, text: 'hello there', firstName: 'Ada' });
    await world.telegram.waitFor(() => world.telegram.botMessages(OWNER).find((m) => /^echo: hello there/.test(shownText(m))), 30_000);
    const page = await web.loggedIn('desk');
    const row = page.locator(`[data-testid="sessions"] li[data-chat="telegram:${OWNER}"]`);
    await row.waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toMatch(/claude · idle · on worker desk-worker/);
    const sessions = (await apiFrom(page, '/api/sessions')).body as { chat: string; worker?: string }[];
    expect(sessions).toEqual([expect.objectContaining({ chat: `telegram:${OWNER}`, worker: 'desk-worker', cli: 'claude', working: false })]);
  });
});
