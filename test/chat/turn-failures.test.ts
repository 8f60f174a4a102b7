import { describe, expect, it } from 'vitest';
import { appPerTest } from '../support/app-world.ts';
import { chat } from '../support/chats.ts';

// A turn that fails before its CLI even starts is still answered: the chat hears why.
const t = appPerTest({ env: { BRIDGE_ALLOWED_USERS: '1' } });

const say = (text: string, messageId: number) =>
  t.app.bot.handleMessage({ address: chat(-1), user: { id: '1', name: 'Ada' }, text, messageId: String(messageId) });

describe('a turn whose CLI cannot start', () => {
  it('says why: a model holding a NUL byte is refused by /model and by /spawn, and a turn answers why', async () => {
    await say('/model bad\0name', 1);
    expect(t.out.textsTo(-1)).toEqual(['⚠️ A model name has no control characters.\nUsage: /model [name|default]']);
    await say('/spawn --model bad\0name "hello"', 2);
    expect(t.out.textsTo(-1)[1]).toMatch(/^⚠️ A model name has no control characters: "bad\uFFFDname"\.\nUsage: \/spawn /);
    expect(t.app.subagents.registry.forChat('telegram:-1')).toEqual([]);
    // Saved before /model checked it: the turn cannot start its CLI, and still answers why.
    await t.app.bot.chats.get(chat(-1)).change({ model: 'bad\0name' });
    await say('hello', 3);
    await t.app.bot.idle();
    expect(t.out.textsTo(-1).at(-1)).toBe('❌ fake cannot take a model holding a NUL byte');
  });
});
