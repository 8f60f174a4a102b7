import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { ChatStore } from '../../src/store/chat-store.ts';
import { openApp } from '../support/app-world.ts';
import { fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';

let world: FakeCliWorld;
let out: RecordingOutbound;
let app: App;

beforeEach(async () => {
  world = await fakeCliWorld();
  out = new RecordingOutbound();
  // A chat whose saved session the CLI no longer has (its files were cleaned, say).
  const store = await ChatStore.open(world.dir);
  await store.put({ key: '-1', chatId: -1, cli: 'fake', workdir: world.dir, cliSessionId: 'long-gone', updatedAt: 0 });
  app = await openApp(world, out, { env: { BRIDGE_ALLOWED_USERS: '1' } });
});
afterEach(async () => {
  await app.shutdown();
  await world.cleanup();
});

describe('a session the CLI no longer knows', () => {
  it('is replaced by a fresh one, the chat is told, and the answer still comes', async () => {
    await app.bridge.handleMessage({ address: { chatId: -1 }, user: { id: 1 }, text: 'say:still-here' });
    await app.bridge.idle();
    const texts = out.textsTo(-1);
    expect(texts).toContain('ℹ️ fake no longer knows the previous session (long-gone), so this message started a fresh one.');
    expect(texts.at(-1)).toBe('still-here');
    expect(app.bridge.chats.get({ chatId: -1 }).record.cliSessionId).not.toBe('long-gone');
  });
});
