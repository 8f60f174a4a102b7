import { describe, expect, it } from 'vitest';
import { appPerTest } from '../support/app-world.ts';

// A turn that fails before its CLI even starts is still answered: the chat hears why.
const t = appPerTest({ env: { BRIDGE_ALLOWED_USERS: '1' } });

const say = (text: string, messageId: number) => t.app.bridge.handleMessage({ address: { chatId: -1 }, user: { id: 1, name: 'Ada' }, text, messageId });

describe('a turn whose CLI cannot start', () => {
  it('says why', async () => {
    await say('/model bad\0name', 1);
    await say('hello', 2);
    await t.app.bridge.idle();
    expect(t.out.textsTo(-1).find((text) => text.startsWith('❌'))).toMatch(/^❌ .*null bytes/);
  });
});
