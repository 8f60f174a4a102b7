import { describe, expect, it } from 'vitest';
import { appPerTest, spawnFrom } from '../support/app-world.ts';
import { chat } from '../support/chats.ts';

// Every turn and run is priced as its CLI reports it ($0.0010 each for the fake CLI).
const t = appPerTest({ env: { BRIDGE_ALLOWED_USERS: '1', BRIDGE_DAILY_BUDGET_USD: '0.0025' } });

const say = async (text: string) => {
  await t.app.bot.handleMessage({ address: chat(-1), user: { id: '1', name: 'Ada' }, text });
  await t.app.bot.idle();
};
const texts = () => t.out.textsTo(-1);

describe('cost and the daily budget', () => {
  it('records what turns and runs cost, warns once at 80 %, then refuses new turns and spawns until midnight UTC', async () => {
    await say('say:one');
    const run = await spawnFrom(t.app, t.world, 'say:from-a-run');
    expect(run.ok).toBe(true);
    await expect
      .poll(() => texts().filter((t) => t.startsWith('💸')))
      .toEqual(['💸 This chat has used 80 % of its daily budget: $0.0020 of $0.0025 today. It resets at 00:00 UTC.']);
    await say('say:three');
    expect(texts().filter((t) => t.startsWith('💸 This chat has used'))).toHaveLength(1); // once a day

    await say('say:four');
    expect(texts().at(-1)).toMatch(
      /^💸 This chat has spent \$0\.0030 today, its daily budget of \$0\.0025 \(BRIDGE_DAILY_BUDGET_USD\)\. New turns and subagents wait until it resets at 00:00 UTC, in \d+:\d\d(:\d\d)?; what is running finishes\.$/,
    );
    expect(await spawnFrom(t.app, t.world, 'say:five')).toMatchObject({ ok: false, error: expect.stringMatching(/^💸 This chat has spent \$0\.0030 today/) });
    expect((await t.world.invocations()).map((c) => c.prompt)).toEqual(['say:one', 'say:from-a-run', 'say:three']);

    await say('/usage');
    const usage = texts().at(-1)!;
    expect(usage).toMatch(/^💰 Usage of this chat\nToday \(\d{4}-\d\d-\d\d UTC\): \$0\.0030 · 2 turns, 1 run · 30 in \/ 15 out\n/);
    expect(usage).toContain('Daily budget: $0.0030 of $0.0025 (120 %), resets at 00:00 UTC');
    expect(usage).toContain('Costliest runs:\n  #1 Subagent #1: $0.0010');
  });
});
