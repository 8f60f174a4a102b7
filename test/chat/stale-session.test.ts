import { describe, expect, it } from 'vitest';
import { ChatStore } from '../../src/kernel/store/chat-store.ts';
import { appPerTest } from '../support/app-world.ts';
import { chat } from '../support/chats.ts';

const t = appPerTest({
  env: { BRIDGE_ALLOWED_USERS: '1' },
  // A chat whose saved session the CLI no longer has (its files were cleaned, say).
  before: async (world) => {
    const store = await ChatStore.open(world.dir);
    await store.put({ key: 'telegram:-1', chat: chat(-1), cli: 'fake', workdir: world.dir, cliSessionId: 'long-gone', updatedAt: 0 });
  },
});

describe('a session the CLI no longer knows', () => {
  it('is replaced by a fresh one, the chat is told, and the answer still comes', async () => {
    await t.app.bot.handleMessage({ address: chat(-1), user: { id: '1' }, text: 'say:still-here' });
    await t.app.bot.idle();
    const texts = t.out.textsTo(-1);
    expect(texts).toContain('ℹ️ fake no longer knows the previous session (long-gone), so this message started a fresh one.');
    expect(t.out.shownTo(-1)).toContainEqual(expect.stringMatching(/^still-here\n\n✅ /)); // in place of the progress message
    expect(t.app.bot.chats.get(chat(-1)).record.cliSessionId).not.toBe('long-gone');
  });
});
