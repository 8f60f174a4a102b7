import { describe, expect, it } from 'vitest';
import { appPerTest } from '../support/app-world.ts';
import { chat } from '../support/chats.ts';

// Nothing a user sends is dropped silently, a message of blank space included.
const t = appPerTest({ env: { BRIDGE_ALLOWED_USERS: '1' } });

describe('a message of blank space', () => {
  it('is answered, and starts no turn', async () => {
    await t.app.bot.handleMessage({ address: chat(-1), user: { id: '1', name: 'Ada' }, text: ' \n\t\u3000', messageId: '7' });
    await t.app.bot.idle();
    expect(t.out.textsTo(-1)).toEqual(['This message holds only blank space, so nothing went to the agent.']);
    expect(await t.world.invocations()).toEqual([]);
  });
});
