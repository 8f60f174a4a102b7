import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatKey } from '../../src/kernel/ports/chat.ts';
import { appPerTest } from '../support/app-world.ts';
import { chat } from '../support/chats.ts';

// A chat keeps its title (a group's, a person's name) from its messages, for the dashboard to
// name it by; the chat store is written when the title changes, not on every message.
const t = appPerTest({ env: { BRIDGE_ALLOWED_USERS: '1' } });
const ada = { id: '1', name: 'Ada' };

async function savedTitle(): Promise<string | undefined> {
  const saved = JSON.parse(await readFile(join(t.world.dir, 'chats.json'), 'utf8')) as { chats: Record<string, { title?: string }> };
  return saved.chats[chatKey(chat(-1))]?.title;
}

describe("a chat's title", () => {
  it('is kept from its messages, and follows a rename', async () => {
    await t.app.bot.handleMessage({ address: chat(-1), user: ada, text: '/help', messageId: '1', chatTitle: 'Ops room' });
    await t.app.bot.idle();

    expect(await savedTitle()).toBe('Ops room');

    await t.app.bot.handleMessage({ address: chat(-1), user: ada, text: '/help', messageId: '2', chatTitle: 'Ops and on-call' });
    await t.app.bot.idle();
    expect(await savedTitle()).toBe('Ops and on-call');
    // A message without one (a transport that names no chat) keeps what is known.
    await t.app.bot.handleMessage({ address: chat(-1), user: ada, text: '/help', messageId: '3' });
    await t.app.bot.idle();
    expect(await savedTitle()).toBe('Ops and on-call');
  });
});
