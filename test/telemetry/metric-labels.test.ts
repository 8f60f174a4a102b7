import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SendBudget } from '../../src/kernel/concurrency/send-budget.ts';
import type { MetricsConfig } from '../../src/services/telemetry/metrics-settings.ts';
import { silentLog } from '../support/silent-log.ts';
import { MetricsSdk } from '../../src/services/telemetry/metrics.ts';
import { sendMeter } from '../../src/services/telemetry/metrics-chat-apps.ts';
import { webhookDelivered } from '../../src/services/telemetry/metrics-webhooks.ts';
import { appPerTest, spawnFrom } from '../support/app-world.ts';
import { chat } from '../support/chats.ts';
import { unboundedLabels } from '../support/metric-labels.ts';
import { samples, total } from '../support/prometheus.ts';

// Every metric's labels after a busy stretch of the whole bridge in this process: each value
// from a fixed set, whatever people typed (a model name, a message, a path).
const ON: MetricsConfig = { disabled: false, token: undefined, listen: undefined, otlp: undefined, secrets: [] };
let sdk: MetricsSdk;
beforeEach(async () => {
  sdk = await MetricsSdk.start(ON, 'jsonl-bridge');
});
afterEach(() => sdk.shutdown(silentLog()));
const t = appPerTest({ env: { BRIDGE_ALLOWED_USERS: '1' } });

const SECRET_TEXT = 'the launch code is 0000';
const PATHLIKE_MODEL = '/home/ada/models/private-finetune';
const say = (chatId: number, text: string) =>
  t.app.bot.handleMessage({ address: chat(chatId), user: { id: '1', name: 'Ada' }, text, messageId: String(Math.random()) });
const answered = (chatId: number, pattern: RegExp) =>
  expect.poll(() => t.out.shownTo(chatId).some((text) => pattern.test(text)), { timeout: 15_000 }).toBe(true);

describe('the labels of every metric', () => {
  it('come from fixed sets after turns, a model typed by hand, a stopped turn, a run, a 429 and webhook deliveries', async () => {
    await say(-1, `${SECRET_TEXT} say:first-done`);
    await answered(-1, /first-done/);
    await say(-2, `/model ${PATHLIKE_MODEL}`);
    await say(-2, 'say:second-done');
    await answered(-2, /second-done/);
    await say(-3, 'hang');
    await expect.poll(() => t.app.bot.chats.get(chat(-3)).busy).toBe(true);
    await say(-3, '/stop');
    await t.app.idle();
    await spawnFrom(t.app, t.world, 'say:a run');
    await t.app.idle();
    // A run's ending is counted once its record is on disk, which idle() does not wait for.
    await expect.poll(async () => total((await sdk.scrape())!, 'jsonl_bridge_runs_ended_total', { outcome: 'completed' })).toBe(1);
    // A chat app's 429 through the real send budget, and deliveries as the hook routes answer them.
    let calls = 0;
    const budget = new SendBudget({
      limits: () => ({ max: 100, windowMs: 1000 }),
      retryAfter: (error) => ((error as { status?: number }).status === 429 ? 0.01 : undefined),
      meter: sendMeter('telegram'),
    });
    await budget.schedule(`telegram:-1`, 'message', async () => {
      if (calls++ === 0) throw Object.assign(new Error('Too Many Requests'), { status: 429 });
      return 'sent';
    });
    for (const [status, decision] of [
      [202, 'accepted'],
      [401, 'refused'],
      [200, 'duplicate'],
    ] as const)
      webhookDelivered(status, decision);

    const scraped = (await sdk.scrape())!;
    const all = samples(scraped);
    expect(unboundedLabels(all)).toEqual([]);
    for (const leak of [SECRET_TEXT, PATHLIKE_MODEL, 'private-finetune', t.world.dir, 'Ada', 'telegram:-1']) expect(scraped).not.toContain(leak);
    // What the labels do say.
    expect(total(scraped, 'jsonl_bridge_turns_ended_total', { cli: 'fake', gen_ai_request_model: 'other', outcome: 'completed' })).toBe(2);
    expect(total(scraped, 'jsonl_bridge_turns_ended_total', { outcome: 'stopped' })).toBe(1);
    expect(total(scraped, 'jsonl_bridge_interrupts_total', { cli: 'fake', reason: 'stop' })).toBe(1);
    expect(total(scraped, 'jsonl_bridge_runs_ended_total', { outcome: 'completed' })).toBe(1);
    expect(total(scraped, 'jsonl_bridge_chat_app_calls_total', { transport: 'telegram', outcome: 'rate_limited' })).toBe(1);
    expect(total(scraped, 'jsonl_bridge_chat_app_rate_limits_total', { transport: 'telegram' })).toBe(1);
    expect(total(scraped, 'jsonl_bridge_chat_app_calls_total', { transport: 'telegram', outcome: 'ok' })).toBe(1);
    expect(total(scraped, 'jsonl_bridge_chat_app_send_wait_count', { transport: 'telegram' })).toBe(1);
    expect(total(scraped, 'jsonl_bridge_webhook_deliveries_total', { status_class: '4xx' })).toBe(1);
    expect(all.filter((s) => s.name === 'jsonl_bridge_cli_processes').map((s) => s.labels.state)).toEqual(['busy', 'idle']);
  });
});
