import { afterEach, describe, expect, it } from 'vitest';
import { appPerTest } from '../support/app-world.ts';
import { chat } from '../support/chats.ts';
import { HeldOutbound } from '../support/recording-outbound.ts';

// Once a drain begins no turn starts in this process, however a message got to the chat's
// turns: it waits, pending, for the next start, behind those the drain kept.

// The chat's "⏳ Queued" notices are held until released, as a flood limit would hold them.
const t = appPerTest({
  env: { BRIDGE_ALLOWED_USERS: '1', BRIDGE_DRAIN_SECONDS: '30' },
  out: () => new HeldOutbound((text) => text.startsWith('⏳ Queued')),
});
// A test that fails with its notices still held lets them go, so the app can shut down.
afterEach(() => t.out.release());

const address = chat(-1);
const say = (text: string) => t.app.bot.handleMessage({ address, user: { id: '1', name: 'Ada' }, text });

/** The chat's first turn at work, in queue mode. */
async function atWork(text: string) {
  await say('/busy queue');
  await say(text);
  const session = t.app.bot.chats.get(address);
  await expect.poll(() => session.busy).toBe(true);
  return session;
}

describe('a drain', () => {
  it('keeps a message that reaches the turns after it began (a file was being saved, a write) for the next start, in order', async () => {
    const session = await atWork('sleep:1 first');
    t.out.release();
    await say('say:second');
    const drained = t.app.drain();
    await t.app.bot.turns.start(session, { text: 'say:late' }, '1');
    await drained;
    expect((await t.world.invocations()).map((call) => call.prompt)).toEqual(['sleep:1 first']);
    expect(session.record.pending?.map((p) => p.text)).toEqual(['say:second', 'say:late']);
  });

  it('keeps a message whose queue notice was held when it began', async () => {
    const session = await atWork('sleep:1 first');
    const second = say('say:second');
    await expect.poll(() => session.record.pending?.length).toBe(2);
    const drained = t.app.drain();
    t.out.release();
    await second;
    await drained;
    expect((await t.world.invocations()).map((call) => call.prompt)).toEqual(['sleep:1 first']);
    expect(session.record.pending?.map((p) => p.text)).toEqual(['say:second']);
  });
});
