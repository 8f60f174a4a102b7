import { describe, expect, it } from 'vitest';
import { appPerTest } from '../support/app-world.ts';
import { chat } from '../support/chats.ts';

// Once a drain begins no turn starts in this process, however a message got to the chat's
// turns: it waits, pending, for the next start, behind those the drain kept.
const t = appPerTest({ env: { BRIDGE_ALLOWED_USERS: '1', BRIDGE_DRAIN_SECONDS: '30' } });

describe('a drain', () => {
  it('keeps a message that reaches the turns after it began (it was on its way: a file saved, a write) for the next start, in order', async () => {
    const address = chat(-1);
    const say = (text: string) => t.app.bridge.handleMessage({ address, user: { id: '1', name: 'Ada' }, text });
    await say('/busy queue');
    await say('sleep:1 first');
    await say('say:second');
    const session = t.app.bridge.chats.get(address);
    await expect.poll(() => session.busy).toBe(true);
    const drained = t.app.drain();
    await t.app.bridge.startTurn(session, { text: 'say:late' }, '1');
    await drained;
    expect((await t.world.invocations()).map((call) => call.prompt)).toEqual(['sleep:1 first']);
    expect(session.record.pending?.map((p) => p.text)).toEqual(['say:second', 'say:late']);
  });
});
